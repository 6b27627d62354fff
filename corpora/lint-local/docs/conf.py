# Sphinx configuration of the fixture tree: :ref: labels must be defined in the tree.
project = "fixture"
