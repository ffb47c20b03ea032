import JSON
import Testing

@testable import HingeCLI

/// docs/lint.md: exit statuses, the configuration, the matrix, custom devices, progress.
@Suite struct LintRunTests {
    /// On an iPhone 16, one info (posture-ignored, at /posture) and one warning (chained-modal, at
    /// /presentations/1/presentedFrom).
    static let scene = """
        {"device": "iphone-16", "posture": "halfOpened", "presentations": [
          {"id": "editor", "kind": "sheet"},
          {"id": "help", "kind": "sheet", "presentedFrom": "editor"}
        ]}
        """

    @Test("exit status: 0 below --fail-on, 1 at or above it, 2 for usage, unreadable paths and bad configs")
    func exitStatuses() {
        let p = LintProject()
        p.write("s.json", Self.scene)
        #expect(p.lint(["s.json", "--no-config"]).status == 1)  // default: warning
        #expect(p.lint(["s.json", "--no-config", "--fail-on", "error"]).status == 0)
        #expect(p.lint(["s.json", "--no-config", "--fail-on", "never"]).status == 0)
        #expect(p.lint(["s.json", "--no-config", "--fail-on", "info", "--rule", "chained-modal=off"]).status == 1)
        #expect(
            p.lint(["s.json", "--no-config", "--fail-on", "warning", "--rule", "chained-modal=info"]).status == 0)
        #expect(p.lint(["s.json", "--no-config", "--fail-on", "error", "--rule", "posture-ignored=error"]).status == 1)
        let usage = p.lint(["s.json", "--fail-on", "sometimes"])
        #expect(usage.status == 2)
        #expect(usage.stderr == "hinge lint: --fail-on must be one of error, warning, info, never, got 'sometimes'\n")
        #expect(p.lint(["--no-config"]).status == 2)  // no PATH
        #expect(p.lint(["s.json", "--frobnicate"]).status == 2)
        let missing = p.lint(["nothing-here.json", "--no-config"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("hinge lint: cannot read nothing-here.json: No such file or directory"))
        #expect(p.lint(["s.json", "--no-config", "--devices", "iphone-61"]).status == 2)
        p.write("hinge-lint.json", "{\"failOn\": 3}")
        #expect(p.lint(["s.json"]).status == 2)
        #expect(p.lint(["s.json", "--no-config", "--update-baseline"]).status == 2)  // no baseline file named
        let noBaseline = p.lint(["s.json", "--no-config", "--baseline", "none.json"])
        #expect(noBaseline.status == 1)  // an empty baseline: every finding shows
        #expect(noBaseline.stderr.contains("warning: no baseline at none.json yet: every finding is shown"))
    }

    @Test("config: unknown keys and rule ids are errors at their pointer, with a did-you-mean")
    func configDidYouMean() {
        let p = LintProject()
        p.write("s.json", Self.scene)
        p.write(
            "hinge-lint.json",
            #"{"failon": "error", "rules": {"chained-modl": "off"}, "overrides": [{"files": "*.json", "posture": ["flat"]}]}"#
        )
        let run = p.lint(["s.json"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("hinge-lint.json: /failon: unknown key \"failon\": did you mean \"failOn\"?"))
        #expect(
            run.stderr.contains(
                "hinge-lint.json: /rules/chained-modl: unknown rule \"chained-modl\": did you mean \"chained-modal\"?"))
        #expect(
            run.stderr.contains(
                "hinge-lint.json: /overrides/0/posture: unknown key \"posture\": did you mean \"postures\"?"))
        let flag = p.lint(["s.json", "--no-config", "--rule", "chained-modl=off"])
        #expect(flag.stderr == "hinge lint: --rule: unknown rule \"chained-modl\": did you mean \"chained-modal\"?\n")
        let constant = p.lint(["s.json", "--no-config", "--constant", "sheet.topgap=3"])
        #expect(constant.stderr == "hinge lint: unknown constant \"sheet.topgap\": did you mean \"sheet.topGap\"?\n")
    }

    @Test("config: found in a parent directory; rules and the matrix per path pattern; paths relative to it")
    func configPerPath() throws {
        let p = LintProject()
        p.write("app/phone/s.json", Self.scene)
        p.write("app/fold/s.json", Self.scene)
        p.write(
            "hinge-lint.json",
            """
            {"failOn": "error", "rules": {"posture-ignored": "off"}, "baseline": "lint/baseline.json",
             "overrides": [{"files": "app/fold/**", "devices": ["iphone-duo"], "postures": ["flat", "halfOpened"],
                            "rules": {"chained-modal": "error"}}]}
            """)
        let run = p.lint(["."], environment: [:])
        #expect(run.status == 1)  // the chained modal is an error on the foldable, and no baseline hides it yet
        #expect(run.stderr.contains("no baseline at lint/baseline.json yet"))
        #expect(p.lint(["app", "--update-baseline"]).status == 0)
        let baseline = try JSONParser.parse(Array((p.read("lint/baseline.json") ?? "").utf8))
        let entries = baseline["findings"]?.arrayValue ?? []
        // iphone-duo folds: flat and halfOpened; the phone scene is checked as written; posture-ignored is off.
        #expect(
            entries.map { "\($0["file"]!.stringValue!) \($0["rule"]!.stringValue!) \($0["combination"]!.stringValue!)" }
                == [
                    "app/fold/s.json chained-modal iphone-duo/inner/flat/portrait/ltr",
                    "app/fold/s.json chained-modal iphone-duo/inner/halfOpened/portrait/ltr",
                    "app/phone/s.json chained-modal iphone-16/main/flat/portrait/ltr",
                ])
    }

    @Test("matrix: the flags' dimensions, postures only on devices that fold, every combination's findings")
    func matrix() {
        let p = LintProject()
        p.write("s.json", Self.scene)
        let run = p.lint([
            "s.json", "--no-config", "--devices", "iphone-16,iphone-duo", "--postures", "flat,halfOpened,closed",
            "--orientations", "portrait,landscape", "--layout-directions", "ltr,rtl",
        ])
        #expect(run.stdout.contains("in 1 of 1 scene file (16 combinations)"))
        // The chained modal in each of the 16 combinations.
        #expect(run.findingLines.filter { $0.contains("[chained-modal]") }.count == 16)
        #expect(run.findingLines.contains { $0.hasSuffix("(iphone-duo outer, closed, landscape, rtl)") })
        #expect(!run.findingLines.contains { $0.contains("(iphone-16 main, halfOpened") })
    }

    @Test("matrix: at most 512 combinations a scene, counted as POST /v1/resolve/matrix counts them")
    func matrixLimit() {
        let p = LintProject()
        p.write("s.json", Self.scene)
        // 7 built-ins and 125 custom phones: 6 × 4 + 3 × 4 (the iPhone Duo folds) + 125 × 4 = 536 combinations.
        let profiles = (0..<125).map { i in
            #"{"id": "phone-\#(i)", "name": "Phone \#(i)", "kind": "phone", "displays": [{"id": "main", "width": 390, "height": 844}]}"#
        }
        p.write("devices.json", "[" + profiles.joined(separator: ",") + "]")
        let all = ["s.json", "--no-config", "--devices-file", "devices.json", "--devices", "all"]
        let tooMany = p.lint(
            all + [
                "--postures", "flat,halfOpened,closed", "--orientations", "portrait,landscape", "--layout-directions",
                "ltr,rtl",
            ])
        #expect(tooMany.status == 2)
        #expect(tooMany.stderr.contains("asks for up to 536 combinations of a scene, at most 512 are allowed"))
        // Without the postures: 132 × 2 × 2 = 528, still too many; with one orientation: 264.
        #expect(p.lint(all + ["--orientations", "portrait,landscape", "--layout-directions", "ltr,rtl"]).status == 2)
        let fits = p.lint(all + ["--orientations", "portrait", "--layout-directions", "ltr,rtl", "--fail-on", "never"])
        #expect(fits.status == 0)
        #expect(fits.stdout.contains("(264 combinations)"))
    }

    @Test("devices file: custom profiles in the API's shape, validated like PUT /v1/devices")
    func devicesFile() {
        let p = LintProject()
        p.write("s.json", Self.scene.replacing("iphone-16", with: "team-tablet"))
        p.write(
            "devices.json",
            """
            [{"id": "team-tablet", "name": "Team tablet", "kind": "tablet",
              "displays": [{"id": "main", "width": 800, "height": 1280, "safeArea": {"top": 24, "bottom": 20}}]}]
            """)
        let run = p.lint(["s.json", "--no-config", "--devices-file", "devices.json"])
        #expect(run.findingLines.contains { $0.hasSuffix("(team-tablet main, flat, portrait, ltr)") })
        let unknown = p.lint(["s.json", "--no-config"])
        #expect(unknown.findingLines.count == 1)
        #expect(unknown.findingLines.first?.contains("[invalid-scene]") == true)
        p.write(
            "bad.json",
            #"[{"id": "iphone-16", "name": "x", "kind": "phone", "displays": []}, {"id": "t", "kind": "tv", "displays": []}]"#
        )
        let bad = p.lint(["s.json", "--no-config", "--devices-file", "bad.json"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bad.json: /0/id: \"iphone-16\" is a built-in profile and read-only"))
        #expect(bad.stderr.contains("bad.json: /1/name: "))
        #expect(bad.stderr.contains("bad.json: /1/kind: "))
        #expect(bad.stderr.contains("bad.json: /1/displays: must list at least one display"))
    }

    @Test("devices file: a saved GET /v1/devices answer works, its built-ins skipped")
    func devicesFromGetAnswer() {
        let p = LintProject()
        p.write("s.json", Self.scene.replacing("iphone-16", with: "team-phone"))
        p.write(
            "devices.json",
            """
            {"items": [{"id": "iphone-16", "name": "iPhone 16", "kind": "phone", "builtIn": true, "displays": []},
                       {"id": "team-phone", "name": "Team phone", "kind": "phone", "builtIn": false,
                        "displays": [{"id": "main", "width": 400, "height": 860}]}]}
            """)
        let run = p.lint([
            "s.json", "--no-config", "--devices-file", "devices.json", "--devices", "team-phone,iphone-16",
        ])
        #expect(run.status == 1)
        #expect(run.findingLines.filter { $0.contains("[chained-modal] (team-phone main,") }.count == 1)
        #expect(run.findingLines.filter { $0.contains("[chained-modal] (iphone-16 main,") }.count == 1)
    }

    @Test("directories: the configuration, baseline, snapshots, devices file, excluded and hidden files are skipped")
    func ownFilesSkipped() {
        let p = LintProject()
        p.write("scenes/a.json", Self.scene)
        p.write("scenes/notes.txt", "not a scene")
        p.write("scenes/.drafts/b.json", "{ not json")
        p.write("fixtures/c.json", "{ not json")
        p.write("team-devices.json", "[]")
        p.write(
            "hinge-lint.json",
            #"{"baseline": "accepted.json", "snapshots": "snaps", "devicesFile": "team-devices.json", "exclude": ["fixtures/**"]}"#
        )
        #expect(p.lint(["scenes", "--update-snapshots"]).status == 1)  // the chained modal, not baselined yet
        #expect(p.lint(["scenes", "--update-baseline"]).status == 0)
        let run = p.lint(["."])
        #expect(run.status == 0)
        #expect(run.stdout == "no findings in 1 scene file (1 combination); 2 hidden by the baseline\n")
        // Named explicitly, an excluded file is linted.
        #expect(p.lint(["fixtures/c.json"]).findingLines.count == 1)
    }

    @Test("progress: on standard error only when it is a terminal and the run takes more than a second")
    func progressOnTerminal() {
        let p = LintProject()
        for i in 0..<5 { p.write("s\(i).json", Self.scene) }
        let slow = SteppingClock(step: 600_000_000)
        let terminal = p.lint([".", "--no-config", "--jobs", "1"], terminal: true, clock: slow.read)
        #expect(terminal.stderr.contains("\rlinted 5/5 files"))
        #expect(terminal.stderr.hasSuffix("\r\u{1B}[K"))
        let piped = p.lint(
            [".", "--no-config", "--jobs", "1"], terminal: false, clock: SteppingClock(step: 600_000_000).read)
        #expect(piped.stderr == "hinge lint: no configuration (--no-config)\n")
        let quick = p.lint([".", "--no-config", "--jobs", "1"], terminal: true, clock: SteppingClock(step: 1000).read)
        #expect(quick.stderr == "hinge lint: no configuration (--no-config)\n")
    }

    @Test("workers: two threads give the same report, in the same order, as one")
    func workersKeepOrder() {
        let p = LintProject()
        for i in 0..<30 {
            p.write("s\(i).json", i % 3 == 0 ? Self.scene : LintBaselineSnapshotTests.legacy)
        }
        let one = p.lint([".", "--no-config", "--jobs", "1"])
        let two = p.lint([".", "--no-config", "--jobs", "2"])
        #expect(one.stdout == two.stdout)
        #expect(one.findingLines.count == 60)
    }

    @Test("glob: *, ? and ** by segment; a pattern without / matches the file name at any depth")
    func globs() {
        #expect(LintGlob("app/**/*.json").matches("app/a/b/c.json"))
        #expect(LintGlob("app/**/*.json").matches("app/c.json"))
        #expect(!LintGlob("app/*.json").matches("app/a/c.json"))
        #expect(LintGlob("*.draft.json").matches("deep/down/x.draft.json"))
        #expect(!LintGlob("*.draft.json").matches("deep/down/x.json"))
        #expect(LintGlob("./s?.json").matches("s1.json"))
        #expect(LintGlob("réglages/é?.json").matches("réglages/éa.json"))
        #expect(!LintGlob("a/b").matches("a/b/c"))
    }
}
