// The Store module: see README.md.
