import ArgumentScanning
import JSON
import LayoutEngine
import Resolving

/// The combinations to check a scene in (docs/lint.md#matrix): the vocabulary of `POST /v1/resolve/matrix`
/// (docs/api.md#matrix), with one difference: a dimension that is not given keeps the scene's own value, so a scene
/// with no matrix is checked once, as written.
public struct LintMatrix: Sendable, Equatable {
    public enum Devices: Sendable, Equatable {
        /// Every profile of the catalog (built-ins and custom ones).
        case all
        case ids([String])
    }

    public var devices: Devices?
    public var postures: [Posture]?
    public var orientations: [Orientation]?
    public var layoutDirections: [LayoutDirection]?
    /// Text sizes (`dynamicTypeSize`), each set in the scene as the other dimensions are: the way to see what
    /// accessibility sizes do to fitted sheets (docs/rules.md#dynamic-type-risk).
    public var dynamicTypeSizes: [DynamicTypeSize]?

    public init(
        devices: Devices? = nil, postures: [Posture]? = nil, orientations: [Orientation]? = nil,
        layoutDirections: [LayoutDirection]? = nil, dynamicTypeSizes: [DynamicTypeSize]? = nil
    ) {
        self.devices = devices
        self.postures = postures
        self.orientations = orientations
        self.layoutDirections = layoutDirections
        self.dynamicTypeSizes = dynamicTypeSizes
    }

    public var isEmpty: Bool {
        devices == nil && postures == nil && orientations == nil && layoutDirections == nil && dynamicTypeSizes == nil
    }

    /// The text sizes to check each combination of devices, postures, orientations and directions in: `[nil]` (the
    /// scene's own) when none is given.
    var textSizes: [DynamicTypeSize?] { dynamicTypeSizes.map { $0.map(Optional.some) } ?? [nil] }

    /// These dimensions, with `other`'s where it sets them.
    func overlaid(by other: LintMatrix) -> LintMatrix {
        LintMatrix(
            devices: other.devices ?? devices, postures: other.postures ?? postures,
            orientations: other.orientations ?? orientations,
            layoutDirections: other.layoutDirections ?? layoutDirections,
            dynamicTypeSizes: other.dynamicTypeSizes ?? dynamicTypeSizes)
    }

    /// The device ids the matrix names that the catalog does not have, each with a did-you-mean when one is close.
    func unknownDevices(in catalog: any DeviceCatalog) -> [String] {
        guard case .ids(let ids) = devices else { return [] }
        let known = catalog.allProfiles().map(\.id)
        return ids.filter { catalog.profile(id: $0) == nil }.map { id in
            "unknown device \"\(id)\""
                + (NameSuggestion.suggestion(for: id, among: known).map { ": did you mean \"\($0)\"?" }
                    ?? " (hinge devices lists the known ids)")
        }
    }

    /// The most combinations a scene can get (counted as the API counts them: postures only for devices that fold):
    /// what `Matrix.maxCombinations` bounds.
    func maxCombinations(catalog: any DeviceCatalog) -> Int {
        let postureCount = postures?.count ?? 1
        let perDevice: Int
        switch devices {
        case .none: perDevice = postureCount
        case .all?: perDevice = catalog.allProfiles().reduce(0) { $0 + ($1.folds ? postureCount : 1) }
        case .ids(let ids)?:
            perDevice = ids.reduce(0) { $0 + (catalog.profile(id: $1)?.folds == false ? 1 : postureCount) }
        }
        return perDevice * (orientations?.count ?? 1) * (layoutDirections?.count ?? 1) * (dynamicTypeSizes?.count ?? 1)
    }

    /// The overrides of each combination for a scene whose device, as written, is `sceneDevice`: `[nil]` (the scene
    /// as written) when the matrix is empty. Postures apply only to devices that fold; another device gets `flat`
    /// (docs/api.md#matrix), and a scene without a device keeps its own.
    func combinations(sceneDevice: String?, catalog: any DeviceCatalog) -> [SceneOverrides?] {
        if isEmpty { return [nil] }
        let deviceIDs: [String?]
        switch devices {
        case .none: deviceIDs = [nil]
        case .all?: deviceIDs = catalog.allProfiles().map(\.id)
        case .ids(let ids)?: deviceIDs = ids
        }
        var out: [SceneOverrides?] = []
        for id in deviceIDs {
            let effective = id ?? sceneDevice
            var postureChoices: [Posture?] = [nil]
            if let postures {
                if let effective, let profile = catalog.profile(id: effective) {
                    postureChoices = profile.folds ? postures : [.flat]
                } else {
                    postureChoices = postures
                }
            }
            for posture in postureChoices {
                for orientation in orientations.map({ $0.map(Optional.some) }) ?? [nil] {
                    for direction in layoutDirections.map({ $0.map(Optional.some) }) ?? [nil] {
                        out.append(
                            SceneOverrides(
                                device: id, posture: posture, orientation: orientation, layoutDirection: direction))
                    }
                }
            }
        }
        return out
    }

    // MARK: Parsing (flags and configuration share it)

    /// `all`, or distinct device ids.
    static func devices(_ values: [String], name: String) throws(UsageError) -> Devices {
        if values == ["all"] { return .all }
        return .ids(try distinct(values, name: name))
    }

    /// Distinct values of `E`, at least one.
    static func dimension<E: RawRepresentable & CaseIterable>(_ values: [String], name: String, _: E.Type)
        throws(UsageError) -> [E] where E.RawValue == String
    {
        var out: [E] = []
        for v in try distinct(values, name: name) { out.append(try CommandArguments.choice(v, name, E.self)) }
        return out
    }

    private static func distinct(_ values: [String], name: String) throws(UsageError) -> [String] {
        guard !values.isEmpty else { throw UsageError("\(name) must list at least one value") }
        var seen: Set<String> = []
        for v in values where !seen.insert(v).inserted {
            throw UsageError("\(name): \"\(v)\" is listed twice")
        }
        return values
    }

    /// The limit of `POST /v1/resolve/matrix`, per scene.
    static var limit: Int { Matrix.maxCombinations }
}
