/// The version reported by `hinge --version`, in the `Server` header and by `hinge lint`'s reports.
public let hingeVersion = "0.1.0"
