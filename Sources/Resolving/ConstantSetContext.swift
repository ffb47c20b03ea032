import JSON
import LayoutEngine
import Store

/// Where a resolve finds the constant set a scene names (docs/api.md#constant-sets), and which version it uses.
public struct ConstantSetContext: Sendable {
    /// The stored sets; nil: only `default` is known (a scene naming any other set gets a 422).
    public var catalog: (any ConstantSetCatalog)?
    /// A version that replaces the scene's own `constantSet`: replay's (the version the record used) and the
    /// impact report's (the version asked for).
    public var pin: ConstantSetReference?
    /// Whether a retired set's versions may be used (history: replay and impact; never a new request).
    public var includeRetired: Bool

    public init(
        catalog: (any ConstantSetCatalog)? = nil, pin: ConstantSetReference? = nil, includeRetired: Bool = false
    ) {
        self.catalog = catalog
        self.pin = pin
        self.includeRetired = includeRetired
    }

    /// Why the named version cannot be used: the one violation, at `/constantSet`.
    struct Refusal: Error {
        var issue: JSONIssue
    }

    /// The version a resolve used: its name for the response (`name@n`, `default`) and for the log (nil for
    /// the defaults).
    struct Used {
        var name: String
        var stored: String?
    }

    /// Puts the values `reference` names under the scene's own `constants`; a 422 at `/constantSet` for a set or
    /// version that is not there, or a retired set.
    func apply(_ reference: ConstantSetReference, to scene: inout Scene) -> Result<Used, Problem> {
        use(reference, in: &scene).mapError { .invalid([$0.issue]) }
    }

    /// The constants `reference` puts under the scene's own, and its name; the refusal as `apply`'s.
    func constants(_ reference: ConstantSetReference, for scene: borrowing Scene, into constants: inout Constants)
        -> Result<Used, Problem>
    {
        if reference.isDefault {
            constants = scene.constants
            return .success(Used(name: ConstantSetReference.defaultName, stored: nil))
        }
        if let pin = catalog?.pin(reference, includeRetired: includeRetired) {
            constants = scene.constants(over: pin.constants)
            return .success(Used(name: pin.reference, stored: pin.reference))
        }
        var copy = copy scene
        let result = apply(reference, to: &copy)
        constants = copy.constants
        return result
    }

    /// `apply`, its refusal as the one violation at `/constantSet`.
    func use(_ reference: ConstantSetReference, in scene: inout Scene) -> Result<Used, Refusal> {
        if reference.isDefault { return .success(Used(name: ConstantSetReference.defaultName, stored: nil)) }
        if let pin = catalog?.pin(reference, includeRetired: includeRetired) {
            scene.useConstants(pin.constants)
            return .success(Used(name: pin.reference, stored: pin.reference))
        }
        let message: String
        switch catalog?.lookup(reference, includeRetired: includeRetired) ?? .unknownSet {
        case .found(let version):
            scene.useConstants(version.constants)
            return .success(Used(name: version.reference, stored: version.reference))
        case .unknownSet:
            message =
                "unknown constant set \"\(reference.name)\" (GET /v1/constant-sets lists the sets; \"default\" is "
                + "the built-in values)"
        case .unknownVersion(let latest):
            message =
                "constant set \"\(reference.name)\" has no version \(reference.version ?? 0) (its latest is \(latest))"
        case .retired:
            message = "constant set \"\(reference.name)\" was retired: name another set, or \"default\""
        }
        return .failure(Refusal(issue: JSONIssue(path: JSONPointer(["constantSet"]), message: message)))
    }
}
