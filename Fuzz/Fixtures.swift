// Device profiles for the fuzz targets, given as JSON so that loading them also runs DeviceProfile.decode.
// Same geometry as Tests/LayoutEngineTests/Support.swift (test-phone, test-tablet, test-foldable,
// test-hinged), so the golden scenes in the seed corpus resolve against real profiles.
let fixtureProfilesJSON = #"""
    [{"id":"test-phone","name":"Test phone","kind":"phone","displays":[{"id":"main","width":390,"height":844,"scale":3,
      "cornerRadius":47,"safeArea":{"top":47,"bottom":34},"landscapeSafeArea":{"leading":47,"bottom":21,"trailing":47},
      "sizeClasses":{"portrait":{"horizontal":"compact","vertical":"regular"},"landscape":{"horizontal":"compact","vertical":"compact"}}}]},
     {"id":"test-tablet","name":"Test tablet","kind":"tablet","displays":[{"id":"main","width":1024,"height":1366,"scale":2,
      "cornerRadius":18,"safeArea":{"top":24,"bottom":20},"landscapeSafeArea":{"top":24,"bottom":20},
      "sizeClasses":{"portrait":{"horizontal":"regular","vertical":"regular"},"landscape":{"horizontal":"regular","vertical":"regular"}}}]},
     {"id":"test-foldable","name":"Test foldable","kind":"foldable","displays":[
      {"id":"outer","width":390,"height":844,"scale":3,"cornerRadius":47,"safeArea":{"top":47,"bottom":34},
       "landscapeSafeArea":{"leading":47,"bottom":21,"trailing":47},
       "sizeClasses":{"portrait":{"horizontal":"compact","vertical":"regular"},"landscape":{"horizontal":"compact","vertical":"compact"}}},
      {"id":"inner","width":780,"height":844,"scale":3,"cornerRadius":30,"safeArea":{"top":47,"bottom":34},
       "landscapeSafeArea":{"leading":47,"bottom":21,"trailing":47},"fold":{"orientation":"vertical","position":390,"thickness":0},
       "sizeClasses":{"portrait":{"horizontal":"regular","vertical":"regular"},"landscape":{"horizontal":"regular","vertical":"regular"}}}]},
     {"id":"test-hinged","name":"Test hinged","kind":"foldable","displays":[{"id":"main","width":1200,"height":900,"scale":2,
      "fold":{"orientation":"vertical","position":600,"thickness":20},
      "sizeClasses":{"portrait":{"horizontal":"regular","vertical":"regular"},"landscape":{"horizontal":"regular","vertical":"regular"}}}]}]
    """#

func loadFixtureCatalog() -> StaticDeviceCatalog {
    guard case .array(let items)? = try? JSONParser.parse(fixtureProfilesJSON) else { fatalError("fixture JSON") }
    let mapper = JSONMapper()
    let profiles = items.enumerated().compactMap {
        DeviceProfile.decode($0.element, mapper: mapper, at: JSONPointer.root.appending($0.offset))
    }
    if !mapper.errors.isEmpty || profiles.count != items.count {
        fatalError("fixture profiles invalid: \(mapper.errors)")
    }
    return StaticDeviceCatalog(profiles)
}
