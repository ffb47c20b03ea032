// The Service module: see README.md.
