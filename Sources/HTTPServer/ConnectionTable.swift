/// A loop's open connections, found by descriptor: slot `fd` holds the connection registered on it. A closed
/// connection leaves its slot at once, so a later connection on the same descriptor number is never mistaken
/// for it (`contains`). Also the source of connection ids, unique per loop and per request.
struct ConnectionTable {
    /// Slot `fd`: the connection open on descriptor `fd`, or nil.
    private(set) var slots: [HTTPConnection?] = []
    /// Connections open now.
    private(set) var live = 0
    /// Most connections open at once since the last `floodEnded`.
    private(set) var highWater = 0
    private var nextID: UInt64 = 1

    /// The connection open on `fd`, if any.
    @inline(__always) subscript(fd: Int32) -> HTTPConnection? {
        Int(fd) < slots.count ? slots[Int(fd)] : nil
    }

    /// Whether `c` is still the connection registered at its descriptor (not closed, its descriptor not reused).
    @inline(__always) func contains(_ c: HTTPConnection) -> Bool {
        Int(c.fd) < slots.count && slots[Int(c.fd)] === c
    }

    /// A new id: a late responder of a closed connection, or of an earlier request, carries an id that no
    /// longer matches its connection's.
    @inline(__always) mutating func newID() -> UInt64 {
        defer { nextID &+= 1 }
        return nextID
    }

    /// Registers `c` at its descriptor (whose slot is free: the kernel hands out an open descriptor once).
    mutating func insert(_ c: HTTPConnection) {
        let slot = Int(c.fd)
        if slot >= slots.count { slots.append(contentsOf: repeatElement(nil, count: slot + 1 - slots.count)) }
        slots[slot] = c
        live += 1
        if live > highWater { highWater = live }
    }

    /// Removes `c`; false when it was not registered (closed already).
    mutating func remove(_ c: HTTPConnection) -> Bool {
        guard contains(c) else { return false }
        slots[Int(c.fd)] = nil
        live -= 1
        return true
    }

    /// Whether a flood (hundreds of connections at once) has mostly closed since the last time this answered
    /// true: then the loop gives the freed heap back to the kernel (glibc keeps it otherwise, and the process
    /// would stay at its peak RSS; scripts/soak.sh checks that RSS returns near its level before the flood).
    mutating func floodEnded() -> Bool {
        guard highWater >= 256 && live * 4 <= highWater else { return false }
        highWater = live
        return true
    }
}
