import Foundation
import JSON
import LayoutEngine
import Testing

@testable import Wireframe

// MARK: - Real renderer

/// Renders with librsvg (`rsvg-convert`, Debian package librsvg2-bin). Without it the test records a
/// skip locally, and fails under CI (env `CI` set) so that a missing renderer is never a silent pass.
@Suite("SVG wireframe through rsvg-convert", .serialized)
struct SVGRealRendererTests {
    static func which(_ tool: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// (width, height) from the IHDR chunk (bytes 16–23) of a PNG, nil when the signature is wrong.
    static func pngSize(_ data: [UInt8]) -> (Int, Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard data.count > 24, Array(data[0..<8]) == signature, Array(data[12..<16]) == Array("IHDR".utf8) else {
            return nil
        }
        func be32(_ o: Int) -> Int { data[o..<(o + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    /// Skipped (reported as such) without rsvg-convert, except under CI where the test runs and fails.
    static let runs = which("rsvg-convert") != nil || ProcessInfo.processInfo.environment["CI"] != nil

    @Test(
        "three scenes render to PNGs of the announced size",
        .enabled(if: runs, "rsvg-convert is not on PATH (apt-get install -y librsvg2-bin)"))
    func rsvgRenders() throws {
        guard let rsvg = Self.which("rsvg-convert") else {
            let message = "CI is set but rsvg-convert is not on PATH: install it (apt-get install -y librsvg2-bin)"
            Issue.record("\(message) so that the SVG is checked by a real renderer")
            return
        }
        let dump = ProcessInfo.processInfo.environment["HINGE_SVG_DUMP_DIR"]
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hinge-svg-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var pngs: [[UInt8]] = []
        let names =
            dump == nil
            ? ["phone-bottom-sheet", "ipad-trailing-card", "duo-half-opened"] : SVGFixtures.all.map(\.name)
        for name in names {
            let json = try #require(SVGFixtures.all.first { $0.name == name }).json
            let svg = SVGRenderer.render(
                try SVGFixtures.resolution(json), scene: try JSONParser.parse(json), title: SVGFixtures.titles[name],
                width: 800)
            let root = try #require(XMLCheck.rootAttributes(svg))
            let w = try #require(root["width"].flatMap(Double.init))
            let h = try #require(root["height"].flatMap(Double.init))
            let svgURL = dir.appendingPathComponent("\(name).svg")
            let pngURL = dir.appendingPathComponent("\(name).png")
            try Data(svg.utf8).write(to: svgURL)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: rsvg)
            process.arguments = ["-f", "png", "--background-color", "white", "-o", pngURL.path, svgURL.path]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            process.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0, "rsvg-convert failed on \(name): \(stderr)")
            #expect(!stderr.contains("rror"), "\(name): \(stderr)")
            let png = [UInt8](try Data(contentsOf: pngURL))
            let size = try #require(Self.pngSize(png), "\(name): not a PNG")
            #expect(size.0 == Int(w.rounded(.up)) || size.0 == Int(w.rounded()), "\(name) width \(size.0) vs \(w)")
            #expect(size.1 == Int(h.rounded(.up)) || size.1 == Int(h.rounded()), "\(name) height \(size.1) vs \(h)")
            #expect(size.0 == 800)
            // A blank picture of this size compresses to well under 10 kB; a wireframe with text does not.
            #expect(png.count > 12_000, "\(name): \(png.count) bytes looks blank")
            pngs.append(png)
            if let dump {
                try? Data(svg.utf8).write(to: URL(fileURLWithPath: dump).appendingPathComponent("\(name).svg"))
                try? Data(png).write(to: URL(fileURLWithPath: dump).appendingPathComponent("\(name).png"))
            }
        }
        #expect(Set(pngs).count == pngs.count, "different scenes gave identical PNGs")
    }
}
