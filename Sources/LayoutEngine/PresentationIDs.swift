// The presentation ids of a request as the scene reader meets them (SceneDecodingReader+Presentations.swift):
// `presentedFrom` and repeated ids are looked up here.

/// The ids of the presentations decoded so far, with their indices (for `presentedFrom` and duplicate ids). A
/// scene usually has a handful: they are compared in a list, and hashed only beyond 16 (a request may have
/// up to `SceneLimits.maxPresentations`, and the lookups must stay linear in total).
struct PresentationIDs {
    private var list: [(id: String, index: Int)] = []
    private var hashed: [String: Int]? = nil
    private static let listLimit = 16

    subscript(id: String) -> Int? {
        if let hashed { return hashed[id] }
        for entry in list where entry.id == id { return entry.index }
        return nil
    }

    mutating func insert(_ id: String, at index: Int) {
        if hashed != nil {
            hashed![id] = index
        } else if list.count < Self.listLimit {
            if list.isEmpty { list.reserveCapacity(4) }
            list.append((id, index))
        } else {
            var h = [String: Int](minimumCapacity: 2 * Self.listLimit)
            for entry in list { h[entry.id] = entry.index }
            h[id] = index
            hashed = h
            list = []
        }
    }
}
