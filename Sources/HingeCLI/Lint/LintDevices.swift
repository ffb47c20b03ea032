import JSON
import LayoutEngine
import Store

/// `--devices-file FILE` (docs/lint.md#devices): custom device profiles for the lint, without a server or a database.
/// The file holds a JSON list of profiles in the API's shape (`PUT /v1/devices/{id}` bodies, each with its `id`), or
/// the answer of `GET /v1/devices` (`{"items": [...]}`, whose built-in profiles are skipped). Each profile is
/// validated as `PUT /v1/devices/{id}` validates it; every violation is reported at its pointer.
enum LintDevices {
    static let maxProfiles = 1000
    static let maxBytes = 16 << 20

    struct Loaded {
        var profiles: [DeviceProfile]
        /// Members no rule read (accepted, as `PUT` accepts them), each with its pointer: worth a warning.
        var warnings: [String]
    }

    static func load(_ path: String, display: String) throws(CLIError) -> Loaded {
        let bytes: [UInt8]
        switch LintFileSystem.read(path, limit: maxBytes) {
        case .failed(let reason): throw CLIError("cannot read \(display): \(reason)")
        case .tooLarge(let size): throw CLIError("\(display) is \(size) bytes, at most \(maxBytes) are allowed")
        case .bytes(let b): bytes = b
        }
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONParser.parse(bytes, options: .init(maxSize: maxBytes))
        } catch {
            throw CLIError("\(display) is not JSON: \(error.message)")
        }
        return try decode(value, display: display)
    }

    static func decode(_ value: JSONValue, display: String) throws(CLIError) -> Loaded {
        let items: [JSONValue]
        let prefix: JSONPointer
        if let list = value.arrayValue {
            (items, prefix) = (list, .root)
        } else if let list = value["items"]?.arrayValue {
            (items, prefix) = (list, JSONPointer(["items"]))
        } else {
            throw CLIError(
                "\(display): expected a list of device profiles (or {\"items\": [...]}), found \(value.typeName)")
        }
        var problems: [String] = []
        if items.count > maxProfiles {
            problems.append("/: \(items.count) profiles, at most \(maxProfiles) are allowed")
        }
        var profiles: [DeviceProfile] = []
        var firstIndex: [String: Int] = [:]
        var warnings: [String] = []
        for (i, item) in items.prefix(maxProfiles).enumerated() {
            let at = prefix.appending(i)
            // The built-ins of a GET /v1/devices answer: the catalog has them already.
            if item["builtIn"] == .bool(true) { continue }
            if let id = item["id"]?.stringValue {
                if BuiltInDevices.all.contains(where: { $0.id == id }) {
                    problems.append(
                        "\(at.appending("id")): \"\(id)\" is a built-in profile and read-only: use another id")
                    continue
                }
                if let first = firstIndex[id] {
                    problems.append(
                        "\(at.appending("id")): \"\(id)\" is listed twice (first at \(prefix.appending(first)))")
                    continue
                }
                firstIndex[id] = i
            }
            let mapper = JSONMapper()
            if let profile = DeviceProfile.decode(item, mapper: mapper, at: at) {
                profiles.append(profile)
            }
            problems += mapper.errors.map {
                "\($0.path.description.isEmpty ? "/" : $0.path.description): \($0.message)"
            }
            warnings += mapper.unknownFields.map { "\(display): \($0.path): \($0.message)" }
        }
        if !problems.isEmpty {
            throw CLIError(
                "\(display) is invalid:\n" + problems.map { "  \(display): \($0)" }.joined(separator: "\n"))
        }
        return Loaded(profiles: profiles, warnings: warnings)
    }
}
