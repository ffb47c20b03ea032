// The LayoutEngine module: see README.md.
