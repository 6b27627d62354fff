# Read, never executed: the pages conf.py adds are pages of the site, and
# autosectionlabel makes every section title a label.
extensions = ["sphinx.ext.autosectionlabel"]
html_additional_pages = {"contents": "contents.html", "legal/terms": "terms.html"}
templates_path = ["_templates"]
