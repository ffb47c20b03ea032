import JSON
import Testing

@testable import Service

/// `/v1/constant-sets` against a real server (docs/api.md#constant-sets): every status, immutability, pinning
/// and its record, the impact report against a hand-computed example, design tokens out and in.
@Suite struct ConstantSetRoutesLiveTests {
    /// iPhone 16 portrait: 393×852, top safe-area inset 59; a large sheet is 852 − 59 − `sheet.topGap` tall.
    static let sheet = #"{"device":"iphone-16","presentations":[{"id":"s","kind":"sheet","detents":["large"]}]}"#
    static func pinned(_ set: String, extra: String = "") -> String {
        #"{"device":"iphone-16","constantSet":"\#(set)"\#(extra),"presentations":[{"id":"s","kind":"sheet","detents":["large"]}]}"#
    }

    @Test func createReadAndTheStatusesOfEachRoute() throws {
        let s = try LiveServer()
        let created = try s.post(
            "/v1/constant-sets/acme/versions",
            #"{"basedOn":"default","constants":{"sheet.topGap":12},"note":"measured","sources":{"sheet.topGap":"iPhone Duo, iOS 27.1"}}"#
        )
        #expect(created.status == 201)
        #expect(created.header("Location") == "/v1/constant-sets/acme/versions/1")
        let digest = try #require(created.header("ETag"))
        let v1 = try s.get("/v1/constant-sets/acme/versions/1")
        #expect(v1.status == 200 && v1.header("ETag") == digest)
        #expect(v1.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(v1.json?["constants"]?["sheet.topGap"] == .object(["source": "iPhone Duo, iOS 27.1", "value": 12]))
        #expect(v1.json?["constants"]?["popover.margin"] == .object(["source": "default", "value": 10]))
        #expect(try s.get("/v1/constant-sets/acme/versions/1", headers: [("If-None-Match", digest)]).status == 304)
        // Immutable: no method changes a version.
        for method in ["PUT", "PATCH", "DELETE"] {
            #expect(
                try s.send(method, "/v1/constant-sets/acme/versions/1", body: Array("{}".utf8)).status == 405,
                "\(method)")
        }
        let v2 = try s.post(
            "/v1/constant-sets/acme/versions", #"{"basedOn":"acme@1","constants":{"popover.margin":14}}"#)
        #expect(v2.status == 201 && v2.header("Location") == "/v1/constant-sets/acme/versions/2")
        #expect(try s.get("/v1/constant-sets/acme/versions/1").header("ETag") == digest)
        let list = try #require(try s.get("/v1/constant-sets").json?["constantSets"]?.arrayValue)
        #expect(list.map { $0["name"] } == ["acme"] && list.first?["latestVersion"] == 2)
        #expect(try s.get("/v1/constant-sets/acme").json?["versions"]?.arrayValue?.count == 2)
        // 404s, 400s, 422s with pointers.
        #expect(try s.get("/v1/constant-sets/nope").status == 404)
        #expect(try s.get("/v1/constant-sets/acme/versions/3").status == 404)
        #expect(try s.get("/v1/constant-sets/acme/versions/x").status == 404)
        #expect(try s.get("/v1/constant-sets/acme/versions/1?format=xml").status == 400)
        #expect(try s.post("/v1/constant-sets/default/versions", "{}").status == 400)
        #expect(try s.post("/v1/constant-sets/acme/versions", "{not json").status == 400)
        let bad = try s.post(
            "/v1/constant-sets/acme/versions",
            #"{"basedOn":"acme@9","constants":{"sheet.topGapp":1,"sheet.margin":-1}}"#)
        #expect(bad.status == 422)
        let paths = bad.json?["errors"]?.arrayValue?.compactMap { $0["path"]?.stringValue }
        #expect(paths == ["/basedOn", "/constants/sheet.topGapp", "/constants/sheet.margin"])
        #expect(bad.json?["errors"]?[1]?["message"]?.stringValue?.contains("did you mean \"sheet.topGap\"") == true)
        // Retirement: new requests naming it are refused, it takes no version, its versions stay readable.
        #expect(try s.delete("/v1/constant-sets/acme").status == 204)
        #expect(try s.delete("/v1/constant-sets/acme").status == 404)
        #expect(try s.post("/v1/constant-sets/acme/versions", #"{"constants":{}}"#).status == 409)
        #expect(try s.get("/v1/constant-sets/acme/versions/1").status == 200)
        #expect(try s.get("/v1/constant-sets").json?["constantSets"]?.arrayValue?.isEmpty == true)
        let refused = try s.post("/v1/resolve", Self.pinned("acme"))
        #expect(refused.status == 422 && refused.json?["errors"]?[0]?["path"] == "/constantSet")
    }

    @Test func writesNeedTheAPIKeyWhenSet() throws {
        let s = try LiveServer(apiKey: "k")
        #expect(try s.post("/v1/constant-sets/a/versions", #"{"constants":{}}"#).status == 401)
        #expect(try s.delete("/v1/constant-sets/a").status == 401)
        let ok = try s.post(
            "/v1/constant-sets/a/versions", #"{"constants":{}}"#, headers: [("Authorization", "Bearer k")])
        #expect(ok.status == 201)
    }

    @Test func aPinnedSceneUsesTheVersionTheRecordKeepsItAndReplayUsesIt() throws {
        let s = try LiveServer()
        #expect(try s.post("/v1/constant-sets/acme/versions", #"{"constants":{"sheet.topGap":12}}"#).status == 201)
        let latest = try s.post("/v1/resolve", Self.pinned("acme"))
        #expect(latest.status == 200 && latest.json?["constantSet"] == "acme@1")
        #expect(latest.json?["placements"]?[0]?["frame"]?["height"] == 781)  // 852 − 59 − 12
        // Per-request constants apply on top of the set.
        let over = try s.post("/v1/resolve", Self.pinned("acme@1", extra: #","constants":{"sheet.topGap":2}"#))
        #expect(over.json?["placements"]?[0]?["frame"]?["height"] == 791)
        let byDefault = try s.post("/v1/resolve", Self.pinned("default"))
        #expect(
            byDefault.json?["constantSet"] == "default" && byDefault.json?["placements"]?[0]?["frame"]?["height"] == 783
        )
        #expect(try s.post("/v1/resolve", Self.sheet).json?["constantSet"] == nil)
        #expect(try s.post("/v1/resolve", Self.pinned("acme@2")).status == 422)
        #expect(try s.post("/v1/resolve", Self.pinned("no such")).json?["errors"]?[0]?["path"] == "/constantSet")
        let id = try #require(latest.header("Hinge-Record-Id"))
        // A newer version does not change what replaying the record uses: the version it was resolved with.
        #expect(try s.post("/v1/constant-sets/acme/versions", #"{"constants":{"sheet.topGap":40}}"#).status == 201)
        #expect(try s.post("/v1/requests/\(id)/replay", "").json?["unchanged"] == true)
        let pinnedRecords = try #require(try s.get("/v1/requests?constantSet=acme@1").json?["items"]?.arrayValue)
        #expect(pinnedRecords.count == 2 && pinnedRecords.allSatisfy { $0["constantSet"] == "acme@1" })
        // The defaults: the scene naming `default`, the one naming none, and the two refused.
        #expect(try s.get("/v1/requests?constantSet=default").json?["items"]?.arrayValue?.count == 4)
        #expect(try s.get("/v1/requests?constantSet=acme").status == 400)
    }

    @Test func aMatrixUsesTheSetInEveryCombination() throws {
        let s = try LiveServer()
        #expect(try s.post("/v1/constant-sets/acme/versions", #"{"constants":{"sheet.topGap":12}}"#).status == 201)
        func body(_ set: String) -> String {
            #"{"scene":{"constantSet":"\#(set)","presentations":[{"id":"s","kind":"sheet","detents":["large"]}]},"#
                + #""devices":["iphone-16"],"orientations":["portrait"],"layoutDirections":["ltr"]}"#
        }
        let r = try s.post("/v1/resolve/matrix", body("acme"))
        #expect(r.status == 200)
        let first = try #require(r.json?["results"]?[0])
        #expect(first["resolution"]?["constantSet"] == "acme@1")
        #expect(first["resolution"]?["placements"]?[0]?["frame"]?["height"] == 781)
        let unknown = try s.post("/v1/resolve/matrix", body("nope"))
        #expect(unknown.json?["results"]?[0]?["errors"]?[0]?["path"] == "/constantSet")
    }

    /// Hand-computed: acme@2 sets `sheet.topGap` 32. The two records naming acme (its latest then, acme@1:
    /// topGap 12, height 781, y 71) would use it: their sheets come down by 20. The record pinned to acme@1, the
    /// default sheet and the full-screen cover would not: they are counted apart, by the version they used.
    @Test func theImpactReportMatchesAHandComputedExample() throws {
        let s = try LiveServer()
        #expect(try s.post("/v1/constant-sets/acme/versions", #"{"constants":{"sheet.topGap":12}}"#).status == 201)
        #expect(try s.post("/v1/resolve", Self.pinned("acme")).status == 200)
        #expect(try s.post("/v1/resolve", Self.pinned("acme@1")).status == 200)
        #expect(try s.post("/v1/resolve", Self.pinned("acme")).status == 200)
        #expect(try s.post("/v1/resolve", Self.sheet).status == 200)
        #expect(
            try s.post("/v1/resolve", #"{"device":"iphone-16","presentations":[{"id":"c","kind":"fullScreenCover"}]}"#)
                .status == 200)
        #expect(try s.post("/v1/resolve", #"{"device":"nope"}"#).status == 422)
        #expect(
            try s.post("/v1/constant-sets/acme/versions", #"{"basedOn":"acme@1","constants":{"sheet.topGap":32}}"#)
                .status
                == 201)
        s.store.requestLog.flush()
        let r = try s.post("/v1/constant-sets/acme/versions/2/impact", "")
        #expect(r.status == 200)
        let report = try #require(r.json)
        #expect(
            report["counts"] == .object(["changed": 2, "replayed": 2, "skipped": 1, "unchanged": 0, "elsewhere": 3]))
        #expect(
            report["elsewhere"]
                == .array([
                    .object(["constantSet": "default", "reason": "noSet", "records": 2]),
                    .object(["constantSet": "acme@1", "reason": "otherVersion", "records": 1]),
                ]))
        let groups = try #require(report["groups"]?.arrayValue)
        #expect(
            groups == [
                .object([
                    "pattern": "/placements/*/detents/*/height", "detent": "large", "direction": "decrease",
                    "records": 2, "typical": -20,
                ]),
                .object([
                    "pattern": "/placements/*/frame/height", "detent": .null, "direction": "decrease", "records": 2,
                    "typical": -20,
                ]),
                .object([
                    "pattern": "/placements/*/frame/y", "detent": .null, "direction": "increase", "records": 2,
                    "typical": 20,
                ]),
            ])
        let changes = try #require(report["changes"]?.arrayValue)
        #expect(changes.map { $0["constantSet"] } == ["acme@1", "acme@1"])
        #expect(changes[1]["differences"]?[2] == .object(["path": "/placements/0/frame/y", "before": 71, "after": 91]))
        // Paged: one changed record per page.
        let first = try #require(try s.post("/v1/constant-sets/acme/versions/2/impact", #"{"pageLimit":1}"#).json)
        #expect(first["changes"]?.arrayValue?.count == 1)
        let next = try #require(first["next"]?.stringValue)
        let second = try #require(
            try s.post("/v1/constant-sets/acme/versions/2/impact", #"{"pageLimit":1,"after":"\#(next)"}"#).json)
        #expect(second["changes"]?[0]?["constantSet"] == "acme@1" && second["next"] == .null)
        // A tolerance above the moves: nothing changed.
        let tolerant = try s.post("/v1/constant-sets/acme/versions/2/impact", #"{"tolerance":25}"#)
        #expect(tolerant.json?["counts"]?["changed"] == 0)
        // Filtered by the version the records used.
        let filtered = try s.post("/v1/constant-sets/acme/versions/2/impact", #"{"constantSet":"acme@1"}"#)
        #expect(filtered.status == 200 && filtered.json?["counts"]?["replayed"] == 2)
        #expect(filtered.json?["counts"]?["elsewhere"] == 1)
        let defaults = try s.post("/v1/constant-sets/acme/versions/2/impact", #"{"constantSet":"default"}"#)
        #expect(defaults.json?["counts"]?["replayed"] == 0 && defaults.json?["counts"]?["elsewhere"] == 2)
        let unknown = try s.post("/v1/constant-sets/acme/versions/2/impact", #"{"constantSets":"acme@1"}"#)
        #expect(unknown.status == 422)
        #expect(unknown.json?["errors"]?[0]?["message"]?.stringValue?.contains("did you mean \"constantSet\"") == true)
        #expect(try s.post("/v1/constant-sets/acme/versions/2/impact", #"{"limit":0,"colour":1}"#).status == 422)
        #expect(try s.post("/v1/constant-sets/acme/versions/9/impact", "").status == 404)
    }

    @Test func designTokensRoundTripAndMalformedDocumentsAreRefusedWithPointers() throws {
        let s = try LiveServer()
        #expect(
            try s.post(
                "/v1/constant-sets/acme/versions",
                #"{"constants":{"sheet.topGap":12,"sheet.mediumFraction":0.6},"sources":{"sheet.topGap":"measured"}}"#
            ).status == 201)
        let exported = try s.get("/v1/constant-sets/acme/versions/1?format=dtcg")
        #expect(exported.status == 200 && exported.contentType == "application/design-tokens+json")
        let viaAccept = try s.get(
            "/v1/constant-sets/acme/versions/1", headers: [("Accept", "application/design-tokens+json")])
        #expect(viaAccept.body == exported.body && viaAccept.header("ETag") == exported.header("ETag"))
        #expect(exported.header("ETag") != (try s.get("/v1/constant-sets/acme/versions/1").header("ETag")))
        let doc = try #require(exported.json)
        #expect(doc["sheet"]?["topGap"]?["$value"] == .object(["unit": "px", "value": 12]))
        #expect(doc["sheet"]?["topGap"]?["$type"] == "dimension")
        #expect(doc["sheet"]?["mediumFraction"]?["$value"] == 0.6)
        let imported = try s.post(
            "/v1/constant-sets/copy/versions", String(decoding: exported.body, as: UTF8.self),
            headers: [("Content-Type", "application/design-tokens+json")])
        #expect(imported.status == 201)
        let original = try #require(try s.get("/v1/constant-sets/acme/versions/1").json?["constants"])
        #expect(imported.json?["constants"] == original)
        let malformed = try s.post(
            "/v1/constant-sets/bad/versions",
            #"{"sheet":{"topGap":{"$type":"dimension","$value":{"value":12,"unit":"rem"}},"topGapp":{"$value":1},"#
                + #""margin":{"$type":"number","$value":3},"cornerRadius":{"$value":"{sheet.margin}"}},"#
                + #""popover":{"$type":"dimension","width":{"$value":{"value":-1,"unit":"px"}}},"panel":7}"#,
            headers: [("Content-Type", "application/design-tokens+json")])
        #expect(malformed.status == 422)
        let paths = malformed.json?["errors"]?.arrayValue?.compactMap { $0["path"]?.stringValue }
        #expect(
            paths == [
                "/sheet/topGap/$value/unit", "/sheet/topGapp", "/sheet/margin/$type", "/sheet/cornerRadius/$value",
                "/popover/width/$value/value", "/panel",
            ])
        #expect(
            try s.post(
                "/v1/constant-sets/bad/versions", "{}", headers: [("Content-Type", "application/design-tokens+json")]
            ).status == 422)
    }
}
