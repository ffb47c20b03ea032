import HingeCLI
import JSON
import Testing

@testable import Service

/// A design-system engineer's round trip (docs/api.md#design-tokens): export the latest version, edit a value and
/// the note, import it into the same set; and the same document posted as plain JSON.
@Suite struct ConstantSetTokensLiveTests {
    static let tokens = [("Content-Type", "application/design-tokens+json")]

    /// The export of `path` with `sheet.topGap` set to `gap` and the root note set to `note`.
    static func edited(_ exported: JSONValue, gap: Double, note: String) throws -> String {
        guard case .object(var root) = exported, case .object(var sheet)? = root["sheet"],
            case .object(var token)? = sheet["topGap"], case .object(var ext)? = root["$extensions"],
            case .object(var hinge)? = ext["dev.hinge"]
        else { throw EditError() }
        token["$value"] = .object(["value": .number(gap), "unit": "px"])
        sheet["topGap"] = .object(token)
        root["sheet"] = .object(sheet)
        hinge["note"] = .string(note)
        // The medium fraction's value stays; its source is edited.
        if case .object(var fraction)? = sheet["mediumFraction"] {
            fraction["$extensions"] = .object(["dev.hinge": .object(["source": "re-measured on iOS 27.2"])])
            sheet["mediumFraction"] = .object(fraction)
            root["sheet"] = .object(sheet)
        }
        ext["dev.hinge"] = .object(hinge)
        root["$extensions"] = .object(ext)
        return String(decoding: JSONWriter.encode(.object(root)), as: UTF8.self)
    }

    struct EditError: Error {}

    @Test func anEditedExportIsBasedOnTheLatestVersionAndItsChangeTakesTheNewNote() throws {
        let s = try LiveServer()
        #expect(
            try s.post(
                "/v1/constant-sets/ds/versions",
                #"{"constants":{"sheet.topGap":12,"sheet.mediumFraction":0.6},"note":"first","sources":{"sheet.topGap":"measured"}}"#
            ).status == 201)
        #expect(
            try s.post(
                "/v1/constant-sets/ds/versions",
                #"{"basedOn":"ds@1","constants":{"popover.margin":14},"note":"margins"}"#
            ).status == 201)
        let exported = try #require(try s.get("/v1/constant-sets/ds/versions/2?format=dtcg").json)
        #expect(exported["$extensions"]?["dev.hinge"]?["basedOn"] == "ds@1")
        let body = try Self.edited(exported, gap: 16, note: "tighter top gap")
        let created = try s.post("/v1/constant-sets/ds/versions", body, headers: Self.tokens)
        #expect(created.status == 201 && created.header("Location") == "/v1/constant-sets/ds/versions/3")
        let v3 = try #require(created.json)
        #expect(v3["basedOn"] == "ds@2" && v3["note"] == "tighter top gap")
        let constants = try #require(v3["constants"])
        #expect(constants["sheet.topGap"] == .object(["value": 16, "source": "tighter top gap"]))
        // What the edit did not change keeps the history it had.
        #expect(constants["popover.margin"] == .object(["value": 14, "source": "margins"]))
        #expect(constants["sheet.margin"] == .object(["value": 20, "source": "default"]))
        #expect(constants["sheet.mediumFraction"] == .object(["value": 0.6, "source": "re-measured on iOS 27.2"]))
        #expect(constants["sheet.margin"]?["source"] == "default")
        // Imported again unedited into a new set: the exported version is its base, nothing changes.
        let copy = try s.post(
            "/v1/constant-sets/copy/versions", String(decoding: JSONWriter.encode(exported), as: UTF8.self),
            headers: Self.tokens)
        #expect(copy.status == 201 && copy.json?["basedOn"] == "ds@2")
        #expect(copy.json?["constants"] == (try s.get("/v1/constant-sets/ds/versions/2").json?["constants"]))
    }

    @Test func aTokensDocumentPostedAsJSONIsA422NamingTheContentType() throws {
        let s = try LiveServer()
        #expect(try s.post("/v1/constant-sets/ds/versions", #"{"constants":{"sheet.topGap":12}}"#).status == 201)
        let exported = try s.get("/v1/constant-sets/ds/versions/1?format=dtcg")
        let plain = try s.post(
            "/v1/constant-sets/ds/versions", String(decoding: exported.body, as: UTF8.self),
            headers: [("Content-Type", "application/json")])
        #expect(plain.status == 422)
        let errors = try #require(plain.json?["errors"]?.arrayValue)
        #expect(errors.count == 1 && errors[0]["path"] == "")
        #expect(errors[0]["message"]?.stringValue?.contains("Content-Type: application/design-tokens+json") == true)
        // Hinge's own body with a typo still gets its own message.
        let typo = try s.post("/v1/constant-sets/ds/versions", #"{"constant":{"sheet.topGap":12}}"#)
        #expect(typo.json?["errors"]?[0]?["message"]?.stringValue?.contains("did you mean \"constants\"") == true)
    }

    /// `hinge constant-sets create --server`: the body the route takes, the key for writes, the route's 422.
    @Test func theCommandLineCreatesAVersionThroughAServer() throws {
        let s = try LiveServer(apiKey: "k")
        let env: (String) -> String? = { $0 == "HINGE_API_KEY" ? "k" : nil }
        func run(_ args: [String], environment: @escaping (String) -> String? = env) throws -> CommandOutput {
            ConstantSetsCommandRunner.run(
                options: try ConstantSetsCommandOptions.parse(
                    ["create", "ds"] + args + ["--server", "http://127.0.0.1:\(s.port)"], environment: environment))
        }
        let created = try run(["--set", "sheet.topGap=12", "--note", "measured"])
        #expect(created.exitCode == 0)
        #expect(String(decoding: created.stdout, as: UTF8.self).hasPrefix("created ds@1 \""))
        let v1 = try s.get("/v1/constant-sets/ds/versions/1").json
        #expect(v1?["constants"]?["sheet.topGap"] == .object(["value": 12, "source": "measured"]))
        let refused = try run(["--set", "sheet.topGap=1"], environment: { _ in nil })
        let refusal = try JSONParser.parse(refused.stderr)
        #expect(refused.exitCode == 1 && refusal["status"] == 401)
        let invalid = try run(["--based-on", "ds@7", "--set", "sheet.topGap=12"])
        let problem = try JSONParser.parse(invalid.stderr)
        #expect(invalid.exitCode == 1 && problem["errors"]?[0]?["path"] == "/basedOn")
        let nobody = ConstantSetsCommandRunner.run(
            options: try ConstantSetsCommandOptions.parse(
                ["create", "ds", "--set", "sheet.topGap=1", "--server", "http://127.0.0.1:1"], environment: env))
        #expect(nobody.exitCode == 1 && String(decoding: nobody.stderr, as: UTF8.self).contains("cannot connect"))
    }
}
