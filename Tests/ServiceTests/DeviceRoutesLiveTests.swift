import JSON
import Testing

@testable import Service

func customProfile(id: String = "my-phone", name: String = "My Phone", width: Int = 390) -> String {
    #"""
    {"id":"\#(id)","name":"\#(name)","kind":"phone","displays":[{"id":"main","width":\#(width),"height":844,"scale":3,
     "safeArea":{"top":47,"bottom":34},"landscapeSafeArea":{"leading":47,"trailing":47,"bottom":21},
     "sizeClasses":{"portrait":{"horizontal":"compact","vertical":"regular"},
                    "landscape":{"horizontal":"compact","vertical":"compact"}}}]}
    """#
}

/// `GET /v1/devices`, `GET/PUT/DELETE /v1/devices/{id}` against a real server (docs/api.md#devices).
@Suite struct DeviceRoutesLiveTests {
    @Test func listAndFilterByKind() throws {
        let s = try LiveServer()
        let all = try #require(try s.get("/v1/devices").json?["items"]?.arrayValue)
        #expect(all.count >= 7)
        #expect(all.allSatisfy { $0["builtIn"] == true })
        let foldables = try #require(try s.get("/v1/devices?kind=foldable").json?["items"]?.arrayValue)
        #expect(foldables.map { $0["id"] } == ["iphone-duo"])
        let tablets = try #require(try s.get("/v1/devices?kind=tablet").json?["items"]?.arrayValue)
        #expect(tablets.count == 3 && tablets.allSatisfy { $0["kind"] == "tablet" })
        let bad = try s.get("/v1/devices?kind=watch")
        #expect(bad.status == 400)
        #expect(bad.contentType == "application/problem+json")
    }

    @Test func getHasAnETagAndIfNoneMatchGives304WithoutBody() throws {
        let s = try LiveServer()
        let r = try s.get("/v1/devices/iphone-16")
        #expect(r.status == 200)
        #expect(r.json?["id"] == "iphone-16")
        let etag = try #require(r.header("ETag"))
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        let again = try s.get("/v1/devices/iphone-16", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.header("ETag") == etag)
        #expect(try s.get("/v1/devices/iphone-16", headers: [("If-None-Match", "\"other\"")]).status == 200)
        #expect(try s.get("/v1/devices/iphone-16", headers: [("If-None-Match", "W/\(etag)")]).status == 304)
        #expect(try s.get("/v1/devices/nope").status == 404)
    }

    @Test func putCreatesThenReplacesAndTheNewProfileResolves() throws {
        let s = try LiveServer()
        let created = try s.put("/v1/devices/my-phone", customProfile())
        #expect(created.status == 201)
        #expect(created.json?["builtIn"] == false)
        let etag1 = try #require(created.header("ETag"))
        // A 201 names the created profile (docs/api.md#devices); the URL answers it with the same tag.
        let location = try #require(created.header("Location"))
        #expect(location == "/v1/devices/my-phone")
        let atLocation = try s.get(location)
        #expect(atLocation.status == 200)
        #expect(atLocation.header("ETag") == etag1)
        let replaced = try s.put("/v1/devices/my-phone", customProfile(name: "Renamed"))
        #expect(replaced.status == 200)
        #expect(replaced.header("Location") == nil)
        #expect(replaced.json?["name"] == "Renamed")
        let etag2 = try #require(replaced.header("ETag"))
        #expect(etag1 != etag2)
        // If-Match: a stale tag is 412, the current one replaces.
        let stale = try s.put("/v1/devices/my-phone", customProfile(width: 400), headers: [("If-Match", etag1)])
        #expect(stale.status == 412)
        #expect(stale.contentType == "application/problem+json")
        #expect(
            try s.put("/v1/devices/my-phone", customProfile(width: 400), headers: [("If-Match", etag2)]).status == 200)
        // A body without an id takes the path's.
        #expect(try s.put("/v1/devices/other-phone", customProfile().replacingID()).status == 201)
        // Listed after the built-ins; resolvable by id.
        let ids = try #require(try s.get("/v1/devices").json?["items"]?.arrayValue).compactMap { $0["id"]?.stringValue }
        #expect(ids.suffix(2) == ["my-phone", "other-phone"])
        let r = try s.post("/v1/resolve", #"{"device":"my-phone"}"#)
        #expect(r.status == 200)
        #expect(r.json?["environment"]?["window"]?["width"] == 400)
    }

    /// `If-None-Match: *` creates only: 201 the first time, 412 (naming the current tag) once the profile exists;
    /// with `If-Match` present, `If-Match` decides.
    @Test func ifNoneMatchStarCreatesOnly() throws {
        let s = try LiveServer()
        let created = try s.put("/v1/devices/my-phone", customProfile(), headers: [("If-None-Match", "*")])
        #expect(created.status == 201)
        let etag = try #require(created.header("ETag"))
        let again = try s.put("/v1/devices/my-phone", customProfile(name: "Again"), headers: [("If-None-Match", "*")])
        #expect(again.status == 412)
        #expect(again.json?["detail"]?.stringValue?.contains(etag) == true)
        #expect(try s.get("/v1/devices/my-phone").json?["name"] != "Again")
        let both = try s.put(
            "/v1/devices/my-phone", customProfile(name: "Both"), headers: [("If-Match", etag), ("If-None-Match", "*")])
        #expect(both.status == 200)
        #expect(try s.put("/v1/devices/iphone-16", customProfile(), headers: [("If-None-Match", "*")]).status == 403)
    }

    @Test func invalidProfileIs422WithEveryPath() throws {
        let s = try LiveServer()
        let sc =
            #""sizeClasses":{"portrait":{"horizontal":"compact","vertical":"regular"},"landscape":{"horizontal":"compact","vertical":"compact"}}"#
        let body = #"""
            {"name":"","kind":"watch","displays":[{"id":"a","width":100,"height":100,\#(sc)},{"id":"a","width":100,"height":100,\#(sc)},
             {"id":"b","width":-1,"height":100,"sizeClasses":{"portrait":{"horizontal":"compact","vertical":"regular"}}},
             {"id":"c","width":100,"height":100,"fold":{"orientation":"vertical","position":500},\#(sc)}]}
            """#
        let r = try s.put("/v1/devices/bad", body)
        #expect(r.status == 422)
        let paths = Set(try #require(r.json?["errors"]?.arrayValue).compactMap { $0["path"]?.stringValue })
        for p in [
            "/name", "/kind", "/displays/1/id", "/displays/2/width", "/displays/2/sizeClasses/landscape",
            "/displays/3/fold/position",
        ] {
            #expect(paths.contains(p), "missing \(p) in \(paths.sorted())")
        }
        #expect(try s.get("/v1/devices/bad").status == 404)
    }

    @Test func pathIdAndBodyIdMustAgree() throws {
        let s = try LiveServer()
        let r = try s.put("/v1/devices/one-id", customProfile(id: "another-id"))
        #expect(r.status == 422)
        #expect(r.json?["errors"]?[0]?["path"] == "/id")
        #expect(try s.get("/v1/devices/one-id").status == 404)
        #expect(try s.get("/v1/devices/another-id").status == 404)
    }

    @Test func putNotJSONIs400AndXMLIs415() throws {
        let s = try LiveServer()
        #expect(try s.put("/v1/devices/x", "{nope").status == 400)
        #expect(
            try s.put("/v1/devices/x", customProfile(id: "x"), headers: [("Content-Type", "application/xml")]).status
                == 415)
    }

    @Test func builtInsAreReadOnly() throws {
        let s = try LiveServer()
        let put = try s.put("/v1/devices/iphone-16", customProfile(id: "iphone-16"))
        #expect(put.status == 403)
        #expect(put.contentType == "application/problem+json")
        #expect(try s.delete("/v1/devices/iphone-16").status == 403)
        #expect(try s.get("/v1/devices/iphone-16").json?["builtIn"] == true)
    }

    @Test func deleteCustom204ThenUnknown404() throws {
        let s = try LiveServer()
        #expect(try s.put("/v1/devices/my-phone", customProfile()).status == 201)
        let d = try s.delete("/v1/devices/my-phone")
        #expect(d.status == 204)
        #expect(d.body.isEmpty)
        #expect(try s.get("/v1/devices/my-phone").status == 404)
        let again = try s.delete("/v1/devices/my-phone")
        #expect(again.status == 404)
        #expect(again.contentType == "application/problem+json")
    }
}

/// `--api-key`: every write needs `Authorization: Bearer <key>`; reads stay open (docs/api.md#authorization).
@Suite struct WriteAuthorizationLiveTests {
    static let key = "s3cret-key"

    @Test(arguments: [nil, "Bearer wrong", "Bearer s3cret-ke", "Basic s3cret-key", "s3cret-key"] as [String?])
    func writesWithoutTheRightKeyAre401(_ authorization: String?) throws {
        let s = try LiveServer(apiKey: Self.key)
        let h: [(String, String)] = authorization.map { [("Authorization", $0)] } ?? []
        #expect(try s.put("/v1/devices/my-phone", customProfile(), headers: h).status == 401)
        #expect(try s.delete("/v1/devices/my-phone", headers: h).status == 401)
        let clear = try s.delete("/v1/requests", headers: h)
        #expect(clear.status == 401)
        #expect(clear.contentType == "application/problem+json")
        #expect(clear.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        #expect(try s.get("/v1/devices/my-phone").status == 404)  // nothing was written
    }

    @Test func theRightKeyWritesAndReadsStayOpen() throws {
        let s = try LiveServer(apiKey: Self.key)
        let h = [("Authorization", "Bearer \(Self.key)")]
        #expect(try s.put("/v1/devices/my-phone", customProfile(), headers: h).status == 201)
        #expect(try s.get("/v1/devices/my-phone").status == 200)
        #expect(try s.get("/v1/devices").status == 200)
        #expect(try s.post("/v1/resolve", settingsScene).status == 200)
        #expect(try s.post("/v1/resolve/matrix", #"{"scene":{},"devices":["iphone-16"]}"#).status == 200)
        #expect(try s.get("/v1/requests").status == 200)
        #expect(try s.get("/v1/constants").status == 200)
        #expect(try s.delete("/v1/devices/my-phone", headers: h).status == 204)
        #expect(try s.delete("/v1/requests", headers: [("Authorization", "bearer \(Self.key)")]).status == 204)
        #expect(try s.records().isEmpty)
    }
}

extension String {
    /// The profile without its `"id"` member (the path then names it).
    func replacingID() -> String {
        replacingFirst(#""id":"my-phone","#, with: "")
    }

    func replacingFirst(_ target: String, with replacement: String) -> String {
        var s = self
        if let r = s.firstRange(of: target) { s.replaceSubrange(r, with: replacement) }
        return s
    }
}
