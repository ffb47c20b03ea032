// The HTTPServer module: see README.md.
