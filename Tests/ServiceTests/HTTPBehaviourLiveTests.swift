import JSON
import Store
import TestSupport
import Testing

@testable import Service

/// Caching headers per route, the record id of a resolution, unknown query parameters and unknown members.
@Suite struct CachingLiveTests {
    @Test func everyRouteSaysHowItMayBeCached() throws {
        let s = try LiveServer()
        let id = try #require(try s.post("/v1/resolve", settingsScene).header("Hinge-Record-Id"))
        let noStore = [
            "/healthz", "/readyz", "/metrics", "/v1/devices", "/v1/requests", "/v1/requests/\(id)",
            "/v1/requests/\(id)/svg", "/v1/devices/no-such-device", "/v1/nothing",
        ]
        for path in noStore { #expect(try s.get(path).header("Cache-Control") == "no-store", "\(path)") }
        #expect(try s.post("/v1/resolve", settingsScene).header("Cache-Control") == "no-store")
        #expect(try s.post("/v1/resolve", "{").header("Cache-Control") == "no-store")
        #expect(
            try s.post("/v1/resolve/matrix", #"{"scene":{},"devices":["iphone-16"]}"#).header("Cache-Control")
                == "no-store")
        #expect(try s.send("POST", "/v1/requests/\(id)/replay").header("Cache-Control") == "no-store")
        #expect(try s.put("/v1/devices/my-phone", customProfile()).header("Cache-Control") == "no-store")
    }

    @Test func aDeviceProfileIsRevalidatedEveryTime() throws {
        let s = try LiveServer()
        let r = try s.get("/v1/devices/iphone-16")
        #expect(r.header("Cache-Control") == "no-cache")
        let etag = try #require(r.header("ETag"))
        let again = try s.get("/v1/devices/iphone-16", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.header("Cache-Control") == "no-cache")
        #expect(again.header("ETag") == etag)
    }

    @Test(arguments: [("/openapi.yaml", "application/yaml"), ("/v1/constants", "application/json")])
    func theContractAndConstantsAreFreshForAnHourAndRevalidate(_ path: String, _ type: String) throws {
        let s = try LiveServer()
        let r = try s.get(path)
        #expect(r.status == 200)
        #expect(r.contentType == type)
        #expect(r.header("Cache-Control") == "max-age=3600")
        let etag = try #require(r.header("ETag"))
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && etag.count == 18)
        let same = try s.get(path, headers: [("If-None-Match", "\"other\", " + etag)])
        #expect(same.status == 304)
        #expect(same.body.isEmpty)
        #expect(same.header("ETag") == etag)
        #expect(same.header("Cache-Control") == "max-age=3600")
        let changed = try s.get(path, headers: [("If-None-Match", "\"0000000000000000\"")])
        #expect(changed.status == 200)
        #expect(changed.body == r.body)
    }
}

@Suite struct RecordIdLiveTests {
    @Test(arguments: [
        ("/v1/resolve", settingsScene),
        ("/v1/resolve/matrix", #"{"scene":{"presentations":[]},"devices":["iphone-16"]}"#),
        ("/v1/resolve", #"{"device":"no-such-device"}"#),
    ])
    func aRecordedResolutionNamesItsRecord(_ path: String, _ body: String) throws {
        let s = try LiveServer()
        let first = try #require(try s.post(path, body).header("Hinge-Record-Id"))
        let second = try #require(try s.post(path, body).header("Hinge-Record-Id"))
        #expect(first != second)
        for id in [first, second] {
            let record = try s.get("/v1/requests/\(id)")
            #expect(record.status == 200)
            #expect(record.json?["id"]?.stringValue == id)
            #expect(record.json?["path"]?.stringValue == path)
            #expect(record.json?["request"] == (try JSONParser.parse(Array(body.utf8))))
        }
    }

    @Test func withoutRecordingThereIsNoRecordId() throws {
        let s = try LiveServer(noRecord: true)
        let r = try s.post("/v1/resolve", settingsScene)
        #expect(r.status == 200)
        #expect(r.header("Hinge-Record-Id") == nil)
        #expect(
            try s.post("/v1/resolve/matrix", #"{"scene":{},"devices":["iphone-16"]}"#).header("Hinge-Record-Id") == nil)
    }
}

@Suite struct QueryParameterLiveTests {
    @Test func aMisspeltParameterIs400WithASuggestionAndTheAcceptedOnes() throws {
        let s = try LiveServer()
        let r = try s.post("/v1/resolve?fromat=svg", settingsScene)
        #expect(r.status == 400)
        #expect(r.contentType == "application/problem+json")
        let json = try #require(r.json)
        #expect(json["parameter"] == "fromat")
        #expect(json["accepted"] == .array(["format", "width"]))
        #expect(json["detail"]?.stringValue?.contains(#"did you mean "format"?"#) == true)
        #expect(try s.records().isEmpty)  // refused before any work
        let devices = try s.get("/v1/requests?devcie=iphone-16")
        #expect(devices.status == 400)
        #expect(devices.json?["detail"]?.stringValue?.contains(#"did you mean "device"?"#) == true)
    }

    @Test(arguments: [
        ("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/metrics"), ("GET", "/openapi.yaml"),
        ("GET", "/v1/constants"),
        ("GET", "/v1/devices"), ("GET", "/v1/devices/iphone-16"), ("PUT", "/v1/devices/x"), ("DELETE", "/v1/devices/x"),
        ("GET", "/v1/requests"), ("GET", "/v1/requests/1"), ("GET", "/v1/requests/1/svg"),
        ("POST", "/v1/requests/1/replay"), ("DELETE", "/v1/requests"), ("POST", "/v1/resolve"),
        ("POST", "/v1/resolve/matrix"),
        ("HEAD", "/healthz"),
    ])
    func everyRouteRefusesAnUnknownParameter(_ method: String, _ path: String) throws {
        let s = try LiveServer()
        let r = try s.send(
            method, path + "?x%20y=1", body: method == "POST" || method == "PUT" ? Array("{}".utf8) : nil)
        #expect(r.status == 400)
        if method != "HEAD" { #expect(r.json?["parameter"] == "x y") }
    }

    @Test func acceptedParametersPass() throws {
        let s = try LiveServer()
        #expect(try s.get("/v1/devices?kind=phone").status == 200)
        #expect(try s.get("/v1/requests?limit=5&device=x&status=200&code=c&since=2025-01-01T00:00:00Z").status == 200)
        #expect(try s.post("/v1/resolve?format=json", settingsScene).status == 200)
        #expect(try s.get("/healthz?").status == 200)
    }
}

@Suite struct UnknownMemberLiveTests {
    @Test func a422ListsUnknownFieldsWithDidYouMean() throws {
        let s = try LiveServer()
        let r = try s.post(
            "/v1/resolve", #"{"devices":"iphone-16","presentations":[{"id":"s","kind":"sheet","Detents":["large"]}]}"#)
        #expect(r.status == 422)
        let json = try #require(r.json)
        // The misspelt device is the error itself, before the window it leaves required.
        #expect(json["errors"]?[0]?["path"] == "/devices")
        #expect(
            json["errors"]?[0]?["message"]
                == #"unknown field "devices": did you mean "device"? Without a device, "window" is required"#)
        let unknown = try #require(json["unknownFields"]?.arrayValue)
        #expect(unknown.map { $0["path"] } == ["/presentations/0/Detents", "/devices"])
        #expect(unknown[1]["message"] == #"unknown field "devices" is ignored: did you mean "device"?"#)
        #expect(unknown[0]["message"]?.stringValue?.hasSuffix(#"did you mean "detents"?"#) == true)
        // A 422 without unknown members has no unknownFields.
        #expect(try s.post("/v1/resolve", #"{"presentations":[]}"#).json?["unknownFields"] == nil)
    }

    @Test func a200WarnsWithDidYouMean() throws {
        let s = try LiveServer()
        let r = try s.post("/v1/resolve", #"{"device":"iphone-16","postrue":"flat","zzz":1,"presentations":[]}"#)
        #expect(r.status == 200)
        let warnings = try #require(r.json?["diagnostics"]?.arrayValue).filter { $0["code"] == "unknown-field" }
        #expect(
            warnings.map { $0["message"] } == [
                #"unknown field "postrue" is ignored: did you mean "posture"?"#,
                #"unknown field "zzz" is ignored: check its spelling and where it is nested"#,
            ])
    }

    @Test func aMisspeltConstantIsSuggested() throws {
        let s = try LiveServer(noRecord: true)
        let r = try s.post("/v1/resolve", #"{"device":"iphone-16","presentations":[],"constants":{"sheet.topgap":5}}"#)
        #expect(r.status == 422)
        #expect(r.json?["errors"]?[0]?["path"] == "/constants/sheet.topgap")
        #expect(r.json?["errors"]?[0]?["message"]?.stringValue?.contains(#"(did you mean "sheet.topGap"?)"#) == true)
    }

    @Test func unknownFieldWarningsAreCappedAtAHundredAndACount() throws {
        let s = try LiveServer(noRecord: true)
        let members = (0..<250).map { "\"k\($0)\":0" }.joined(separator: ",")
        let r = try s.post("/v1/resolve", #"{"device":"iphone-16","presentations":[],\#(members)}"#)
        #expect(r.status == 200)
        let warnings = try #require(r.json?["diagnostics"]?.arrayValue).filter { $0["code"] == "unknown-field" }
        #expect(warnings.count == 101)
        #expect(warnings[99]["path"] == "/k99")
        #expect(warnings[100]["path"] == "")
        #expect(warnings[100]["message"]?.stringValue?.hasPrefix("150 more unknown fields") == true)
        let invalid = try s.post("/v1/resolve", #"{"presentations":[],\#(members)}"#)
        #expect(invalid.status == 422)
        #expect(invalid.json?["unknownFields"]?.arrayValue?.count == 101)
    }

    @Test func theMatrixReportsTheScenesUnknownFieldsOnceAtTheTop() throws {
        let s = try LiveServer()
        let body = #"""
            {"scene":{"presentations":[{"id":"s","kind":"sheet"}],"colour":1,"postrue":"flat"},"devices":["iphone-16","iphone-se-3"],
             "orientation":["portrait"]}
            """#
        let r = try s.post("/v1/resolve/matrix", body)
        #expect(r.status == 200)
        let json = try #require(r.json)
        #expect(
            json["warnings"]?.arrayValue?.map { $0["path"] } == ["/orientation", "/scene/colour", "/scene/postrue"])
        #expect(json["warnings"]?[0]?["message"]?.stringValue?.hasSuffix(#"did you mean "orientations"?"#) == true)
        #expect(json["warnings"]?[2]?["message"]?.stringValue?.hasSuffix(#"did you mean "posture"?"#) == true)
        let results = try #require(json["results"]?.arrayValue)
        #expect(results.count == 8)
        for result in results {
            let codes = result["resolution"]?["diagnostics"]?.arrayValue?.map { $0["code"] } ?? []
            #expect(!codes.contains("unknown-field"))
        }
    }
}

@Suite struct QueryParameterContractTests {
    /// The query parameters of each `METHOD /path` of openapi.yaml, read line by line like
    /// `ContractTests.specOperations`: `- name: x` or `- {name: x, …}` with `in: query` on it or the next line.
    static func documentedQueryParameters(_ yaml: String) -> [String: Set<String>] {
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
        var out: [String: Set<String>] = [:]
        var path: String? = nil
        var operation: String? = nil
        var pendingName: String? = nil
        for raw in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            let content = line.drop { $0 == " " }
            let indent = line.count - content.count
            if indent == 0 { path = nil }
            let key = String(content.prefix { $0 != ":" })
            if indent == 2 { path = key.hasPrefix("/") ? key : nil }
            if indent == 4, let path { operation = methods.contains(key) ? "\(key.uppercased()) \(path)" : nil }
            guard let operation else { continue }
            if let name = pendingName, content.hasPrefix("in: query") { out[operation, default: []].insert(name) }
            pendingName = nil
            for prefix in ["- name: ", "- {name: "] where content.hasPrefix(prefix) {
                let name = String(content.dropFirst(prefix.count).prefix { $0 != "," && $0 != "}" })
                if content.contains("in: query") {
                    out[operation, default: []].insert(name)
                } else {
                    pendingName = name
                }
            }
        }
        return out
    }

    @Test func everyDocumentedQueryParameterIsAccepted() throws {
        let yaml = try #require(readFile(ContractTests.specPath).map { String(decoding: $0, as: UTF8.self) })
        let documented = Self.documentedQueryParameters(yaml)
        #expect(documented["POST /v1/resolve"]?.contains("format") == true)  // the reader finds them
        #expect(documented["GET /v1/requests"]?.count == 9)
        #expect(documented["POST /v1/resolve/matrix"] == ["pictures", "width"])
        let directory = TemporaryDirectory()
        let store = try Store.open(Store.Configuration(path: directory.file("hinge.sqlite")))
        defer { store.close() }
        let declared = ServiceApp(options: ServeOptions(), store: store).acceptedQuery
        for (operation, names) in documented {
            let accepted = Set(declared[operation] ?? [])
            #expect(
                names.subtracting(accepted).isEmpty, "\(operation) documents \(names.subtracting(accepted).sorted())")
        }
    }
}
