"""The site: pages rendered from the export through Jinja2 templates, and the cache a long-running server keeps."""
