# Read, never executed: the pages conf.py adds are pages of the site.
extensions = []
html_additional_pages = {"contents": "contents.html", "legal/terms": "terms.html"}
