import JSON
import Testing

@testable import Service

let settingsScene =
    #"{"device":"iphone-16","presentations":[{"id":"settings","kind":"sheet","detents":["medium","large"]}]}"#

/// `POST /v1/resolve`, `POST /v1/resolve/matrix`, `GET /v1/constants` against a real server (docs/api.md#resolve,
/// docs/api.md#matrix).
@Suite struct ResolveRoutesLiveTests {
    @Test func resolveAnswersSortedDeterministicJSON() throws {
        let s = try LiveServer()
        let a = try s.post("/v1/resolve", settingsScene, headers: [("Content-Type", "application/json")])
        #expect(a.status == 200)
        #expect(a.contentType.hasPrefix("application/json"))
        let json = try #require(a.json)
        #expect(json.objectValue?.keys == ["arrangement", "diagnostics", "engineVersion", "environment", "placements"])
        #expect(keysAreSortedEverywhere(json))
        #expect(json["placements"]?[0]?["id"] == "settings")
        #expect(json["placements"]?[0]?["style"] == "bottomSheet")
        #expect(json["environment"]?["device"] == "iphone-16")
        let b = try s.post("/v1/resolve", settingsScene, headers: [("Content-Type", "application/json")])
        #expect(a.body == b.body)  // byte-identical for the same request (docs/rules.md#determinism)
    }

    @Test(arguments: ["?format=svg", ""])
    func svgByQueryOrAccept(_ query: String) throws {
        let s = try LiveServer()
        let headers: [(String, String)] = query.isEmpty ? [("Accept", "image/svg+xml")] : []
        let r = try s.post("/v1/resolve" + query, settingsScene, headers: headers)
        #expect(r.status == 200)
        #expect(r.contentType.hasPrefix("image/svg+xml"))
        #expect(r.text.hasPrefix("<svg") || r.text.hasPrefix("<?xml"))
        #expect(r.text.contains("</svg>"))
    }

    @Test func formatJSONWinsOverAcceptAndAnUnknownFormatIs400() throws {
        let s = try LiveServer()
        let json = try s.post("/v1/resolve?format=json", settingsScene, headers: [("Accept", "image/svg+xml")])
        #expect(json.status == 200)
        #expect(json.contentType.hasPrefix("application/json"))
        let bad = try s.post("/v1/resolve?format=png", settingsScene)
        #expect(bad.status == 400)
        #expect(bad.contentType == "application/problem+json")
    }

    @Test func notJSONIs400WithLineAndColumn() throws {
        let s = try LiveServer()
        let r = try s.post("/v1/resolve", "{\n  \"device\": iphone\n}")
        #expect(r.status == 400)
        #expect(r.contentType == "application/problem+json")
        let json = try #require(r.json)
        #expect(json["status"] == 400)
        #expect(json["line"] == 2)
        #expect(json["column"]?.doubleValue ?? 0 >= 13)
        #expect(json["offset"] != nil)
    }

    @Test func invalidSceneIs422WithEveryViolationAndItsPointer() throws {
        let s = try LiveServer()
        let body = #"""
            {"device":"no-such-device","orientation":"sideways",
             "presentations":[{"id":"a","kind":"sheet"},{"id":"b","kind":"bogus"},{"id":"c","kind":"sheet","detents":["huge"]}]}
            """#
        let r = try s.post("/v1/resolve", body)
        #expect(r.status == 422)
        #expect(r.contentType == "application/problem+json")
        let errors = try #require(r.json?["errors"]?.arrayValue)
        let paths = Set(errors.compactMap { $0["path"]?.stringValue })
        for expected in ["/device", "/orientation", "/presentations/1/kind", "/presentations/2/detents/0"] {
            #expect(paths.contains(expected), "missing \(expected) in \(paths)")
        }
        #expect(errors.allSatisfy { ($0["message"]?.stringValue ?? "").isEmpty == false })
    }

    @Test(arguments: ["multipart/form-data; boundary=x", "application/xml", "text/xml", "application/atom+xml"])
    func nonJSONContentTypesAre415(_ type: String) throws {
        let s = try LiveServer()
        let r = try s.post("/v1/resolve", settingsScene, headers: [("Content-Type", type)])
        #expect(r.status == 415)
        #expect(r.contentType == "application/problem+json")
        let m = try s.post("/v1/resolve/matrix", #"{"scene":{}}"#, headers: [("Content-Type", type)])
        #expect(m.status == 415)
    }

    @Test(arguments: [
        "application/x-www-form-urlencoded", "text/plain", "application/octet-stream",
        "application/json; charset=utf-8",
    ])
    func anyOtherContentTypeIsAcceptedWhenTheBodyIsJSON(_ type: String) throws {
        let s = try LiveServer()
        let r = try s.post("/v1/resolve", settingsScene, headers: [("Content-Type", type)])
        #expect(r.status == 200)  // what `curl -d` sends
    }

    @Test func matrixOrderIsDevicePostureOrientationDirection() throws {
        let s = try LiveServer()
        let body = #"""
            {"scene":{"presentations":[{"id":"s","kind":"sheet"}]},"devices":["iphone-duo","iphone-16"],
             "postures":["flat","halfOpened"],"orientations":["portrait","landscape"],"layoutDirections":["ltr","rtl"]}
            """#
        let r = try s.post("/v1/resolve/matrix", body)
        #expect(r.status == 200)
        let json = try #require(r.json)
        #expect(json["warnings"]?.arrayValue?.isEmpty == true)
        let results = try #require(json["results"]?.arrayValue)
        // The foldable gets 2 postures × 2 × 2; the phone only `flat` × 2 × 2.
        #expect(results.count == 8 + 4)
        var expected: [[String]] = []
        for p in ["flat", "halfOpened"] {
            for o in ["portrait", "landscape"] {
                for l in ["ltr", "rtl"] { expected.append(["iphone-duo", p, o, l]) }
            }
        }
        for o in ["portrait", "landscape"] {
            for l in ["ltr", "rtl"] { expected.append(["iphone-16", "flat", o, l]) }
        }
        let got = results.map { r in
            ["device", "posture", "orientation", "layoutDirection"].map { r[$0]?.stringValue ?? "?" }
        }
        #expect(got == expected)
        for r in results {
            #expect(r["errors"] == .null)
            #expect(r["resolution"]?["environment"]?["posture"] == r["posture"])
            #expect(r["resolution"]?["environment"]?["layoutDirection"] == r["layoutDirection"])
        }
    }

    @Test func matrixUnknownFieldIsAWarning() throws {
        let s = try LiveServer()
        let r = try s.post("/v1/resolve/matrix", #"{"scene":{},"devices":["iphone-16"],"postrues":["flat"]}"#)
        #expect(r.status == 200)
        #expect(r.json?["warnings"]?[0]?["path"] == "/postrues")
    }

    @Test func matrixUnknownDeviceIs422AtItsIndex() throws {
        let s = try LiveServer()
        let r = try s.post("/v1/resolve/matrix", #"{"scene":{},"devices":["iphone-16","nope"]}"#)
        #expect(r.status == 422)
        #expect(r.contentType == "application/problem+json")
        #expect(r.json?["errors"]?[0]?["path"] == "/devices/1")
    }

    @Test func matrixCombinationThatCannotResolveHasErrors() throws {
        let s = try LiveServer()
        // A window wider than an iPhone 16 in portrait fits in landscape only.
        let r = try s.post(
            "/v1/resolve/matrix",
            #"{"scene":{"window":{"width":800,"height":300}},"devices":["iphone-16"],"layoutDirections":["ltr"]}"#)
        #expect(r.status == 200)
        let results = try #require(r.json?["results"]?.arrayValue)
        #expect(results.count == 2)
        #expect(results[0]["resolution"] == .null)
        #expect(results[0]["errors"]?.arrayValue?.isEmpty == false)
        #expect(results[1]["errors"] == .null)
        #expect(results[1]["resolution"]?["placements"] != nil)
    }

    @Test func constantsListsEveryDefault() throws {
        let s = try LiveServer()
        let r = try s.get("/v1/constants")
        #expect(r.status == 200)
        let constants = try #require(r.json?["constants"]?.objectValue)
        #expect(constants["sheet.topGap"]?["default"] == 10)
        #expect(constants["arrangement.minLength"]?["default"] == 44)
        #expect(constants.count >= 16)
    }
}
