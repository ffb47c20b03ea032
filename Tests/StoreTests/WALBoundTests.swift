import CLinux
import CSQLite
import Dispatch
import JSON
import LayoutEngine
import Synchronization
import TestSupport
import Testing

@testable import Store

@Suite("WAL size under sustained writes")
struct WALBoundTests {
    /// Under writes that never pause, the background checkpoints never catch up with the writer; the WAL
    /// restarts only after the writer's own pass at `walMaxPages`. Without that bound the WAL would hold
    /// everything written (here ~17 MB); with it, it stays near 16 pages plus a wave of records.
    @Test func walStaysNearItsBoundWhileRecordsKeepComing() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let store = try Store.open(.init(path: path, walCheckpointPages: 4, walMaxPages: 16))
        let pageSize = try store.performOnSQLiteWriter { db in
            Result { () throws(StoreError) in Int(try db.scalarInt("PRAGMA page_size") ?? 0) }
        }.get()
        #expect(pageSize == 16384)
        let response = incompressible(3600)
        let waves = 80
        let perWave = 50
        var largestWAL = 0
        for w in 0..<waves {
            let counter = CompletionCounter()
            counter.expect(perWave)
            for i in 0..<perWave {
                store.requestLog.append(
                    record(at: Int64(w * perWave + i), response: response), completion: counter.completion)
            }
            #expect(counter.wait())
            #expect(counter.failures.withLock { $0.isEmpty })
            largestWAL = max(largestWAL, fileSize(path + "-wal"))
        }
        let written = waves * perWave * (response.count + 600)
        #expect(written > 16_000_000)
        // 16 pages (256 KiB) + a wave (~210 KB of rows) + what came while a background pass held the
        // checkpoint lock (the writer's own pass waits for it to end): seen up to ~3 MB on a loaded machine,
        // against the ~17 MB an unbounded WAL reaches here.
        #expect(largestWAL > 0)
        #expect(largestWAL <= 5 << 20, "WAL reached \(largestWAL) bytes")
        store.close()
        let db = try rawConnection(path)
        defer { db.close() }
        #expect(try db.scalarInt("SELECT count(*) FROM requests") == Int64(waves * perWave))
        #expect(try db.scalarText("PRAGMA integrity_check") == "ok")
    }

    /// A burst larger than the bound (one transaction of 800 records) grows the WAL file past it; after the
    /// next restart `journal_size_limit` cuts the file back instead of keeping the burst's size until close.
    @Test func walFileShrinksBackAfterABurst() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let store = try Store.open(.init(path: path, walCheckpointPages: 4, walMaxPages: 16))
        let response = incompressible(3600)
        let burst = CompletionCounter()
        burst.expect(800)
        let release = try #require(holdWriter(store))
        for i in 0..<800 {
            store.requestLog.append(record(at: Int64(i), response: response), completion: burst.completion)
        }
        release.signal()
        #expect(burst.wait())
        let afterBurst = fileSize(path + "-wal")
        #expect(afterBurst > 2 << 20, "the burst's transaction alone is ~3.4 MB of frames")
        // Small waves until the WAL restarts and is cut back. On a busy machine a background checkpoint pass
        // can still hold the WAL when a wave commits, so the restart may come a few waves later; 60 waves
        // (~4 MB of frames) is far more than any restart needs, and an unbounded file never shrinks.
        var settled = afterBurst
        for w in 0..<60 where settled > 1 << 20 {
            let counter = CompletionCounter()
            counter.expect(20)
            for i in 0..<20 {
                store.requestLog.append(
                    record(at: Int64(1000 + w * 20 + i), response: response), completion: counter.completion)
            }
            #expect(counter.wait())
            settled = fileSize(path + "-wal")
        }
        #expect(settled <= 1 << 20, "WAL file still \(settled) bytes after the burst's \(afterBurst)")
        store.close()
    }

    /// Under steady writes the WAL restarts at its bound again and again; its file keeps its size through
    /// the restarts (`SQLiteEngine.walFileLimit` is above that size), instead of being cut back at each one
    /// and growing again: cutting frees the file's last blocks and growing allocates them, both on the writer.
    @Test func walFileKeepsItsSizeThroughRestartsUnderSteadyWrites() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("hinge.sqlite")
        let store = try Store.open(.init(path: path, walCheckpointPages: 4, walMaxPages: 16))
        let response = incompressible(3600)
        var sizes: [Int] = []
        for w in 0..<150 {
            let counter = CompletionCounter()
            counter.expect(4)
            for i in 0..<4 {
                store.requestLog.append(
                    record(at: Int64(w * 4 + i), response: response), completion: counter.completion)
            }
            #expect(counter.wait())
            sizes.append(fileSize(path + "-wal"))
        }
        store.close()
        // 150 commits of ~17 KB of records, each writing a few 16 KiB pages: many restarts of a 16-page WAL
        // (a limit at the bound itself cuts the file at most restarts: 31 times in a run like this one). The
        // first waves follow the store's own first transactions (which may leave a larger file, rightly cut
        // back); from the tenth on, every restart is one of steady writes.
        let limit = SQLiteEngine.walFileLimit(walMaxPages: 16, pageSize: 16384)
        let steady = sizes[10...]
        #expect(steady.contains { $0 > 16 * 16384 }, "the WAL never passed its bound: \(steady)")
        #expect(steady.allSatisfy { $0 <= limit }, "the WAL passed its file limit \(limit): \(steady)")
        let cuts = zip(steady, steady.dropFirst()).filter { $0.1 < $0.0 }.count
        #expect(cuts == 0, "the WAL file was cut \(cuts) times: \(steady)")
    }

    @Test func walLimitsAreValidated() {
        for (soft, hard) in [(0, 10), (10, 5), (1, Int(Int32.max) + 1)] {
            #expect {
                _ = try Store.open(.init(path: ":memory:", walCheckpointPages: soft, walMaxPages: hard))
            } throws: { error in
                guard case .invalidConfiguration = error as? StoreError else { return false }
                return true
            }
        }
    }
}
