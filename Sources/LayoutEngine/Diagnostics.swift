import JSON

/// Every diagnostic code (docs/rules.md#diagnostics): the raw value is the code on the wire, and `rule`
/// (DiagnosticRule.swift) is the rule that produces it.
public enum DiagnosticCode: String, Sendable, CaseIterable {
    case postureIgnored = "posture-ignored"
    case chainedModal = "chained-modal"
    case concurrentPresentation = "concurrent-presentation"
    case placementMovedByFold = "placement-moved-by-fold"
    case detentsIgnored = "detents-ignored"
    case placementNoEffect = "placement-no-effect"
    case detentClamped = "detent-clamped"
    case unsavedChangesDismissible = "unsaved-changes-dismissible"
    case toolbarItemMissingIcon = "toolbar-item-missing-icon"
    case toolbarMissingExit = "toolbar-missing-exit"
    case fittedAccessibilityRisk = "fitted-accessibility-risk"
    case contentSpansFold = "content-spans-fold"
    case placementIgnored = "placement-ignored"
    case popoverAdapted = "popover-adapted"
    case panelClamped = "panel-clamped"
    case panelSnappedToFold = "panel-snapped-to-fold"
    case preferNavigation = "prefer-navigation"
    case preferSheet = "prefer-sheet"
    case preferCoverOrGuard = "prefer-cover-or-guard"
    case arrangementInScrollContainer = "arrangement-in-scroll-container"
    case splitFollowsFold = "split-follows-fold"
    case secondaryHidden = "secondary-hidden"
    case unknownField = "unknown-field"
    case presentationCovered = "presentation-covered"
}

public enum Severity: String, Sendable, CaseIterable { case info, warning }

/// One entry of `diagnostics` (docs/rules.md#diagnostics): what happened and what to do about it.
///
/// Resolving records the message and the path as their parts (`DiagnosticMessage`, `DiagnosticPath`);
/// `message` and `path` render them when read, and the response encoder writes them without building the
/// Strings. Equality compares the rendered texts.
public struct Diagnostic: Sendable, Equatable {
    public var code: DiagnosticCode
    public var severity: Severity
    /// The presentation's id, nil for scene-level diagnostics.
    public var presentation: String?
    var pathParts: DiagnosticPath
    var text: DiagnosticMessage

    /// JSON pointer into the request.
    public var path: String {
        get { pathParts.rendered }
        set { pathParts = .text(newValue) }
    }

    public var message: String {
        get { text.rendered }
        set { text = .text(newValue) }
    }

    public init(code: DiagnosticCode, severity: Severity, presentation: String?, path: String, message: String) {
        self.init(
            code: code, severity: severity, presentation: presentation, path: .text(path), message: .text(message))
    }

    init(
        code: DiagnosticCode, severity: Severity, presentation: String?, path: DiagnosticPath,
        message: DiagnosticMessage
    ) {
        self.code = code
        self.severity = severity
        self.presentation = presentation
        self.pathParts = path
        self.text = message
    }

    public static func == (a: Diagnostic, b: Diagnostic) -> Bool {
        a.code == b.code && a.severity == b.severity && a.presentation == b.presentation && a.path == b.path
            && a.message == b.message
    }
}

/// Where text is rendered: a String (`Diagnostic.message`/`path`) or the response encoder's buffer.
/// Where a message or path is written. Literal pieces go to `put(_: StaticString)` (the String overload has
/// a label so that a literal never becomes a `String` on the way), values to `put(text:)`.
protocol DiagnosticTextSink: ~Copyable {
    mutating func put(_ s: StaticString)
    mutating func put(text s: String)
}

struct StringSink: DiagnosticTextSink {
    var text = ""
    mutating func put(_ s: StaticString) { text += s.description }
    mutating func put(text s: String) { text += s }
}

/// A diagnostic's path: text, `/presentations/<index>[/member[/item]]`, or an unknown field's pointer.
enum DiagnosticPath: Sendable {
    case fixed(StaticString)
    case text(String)
    case presentation(index: Int, member: StaticString, item: Int)
    case pointer(JSONPointer)

    func render<S: DiagnosticTextSink & ~Copyable>(into out: inout S) {
        switch self {
        case .fixed(let s): out.put(s)
        case .text(let s): out.put(text: s)
        case .pointer(let p): out.put(text: p.description)
        case .presentation(let index, let member, let item):
            out.put("/presentations/")
            out.put(text: String(index))
            if member.utf8CodeUnitCount > 0 {
                out.put("/")
                out.put(member)
                if item >= 0 {
                    out.put("/")
                    out.put(text: String(item))
                }
            }
        }
    }

    var rendered: String {
        if case .text(let s) = self { return s }
        var sink = StringSink()
        render(into: &sink)
        return sink.text
    }
}

/// A diagnostic's message, kept as the values it mentions until it is read or encoded. Each case renders
/// exactly the text the rule wrote.
enum DiagnosticMessage: Sendable, ExpressibleByStringLiteral {
    case fixed(StaticString)
    case text(String)
    case unknownField(String)
    case postureIgnored(Posture, device: String?)
    case arrangementInScrollContainer(ArrangementContainer)
    case secondaryHidden(Axis, allowed: [Axis])
    case splitFollowsFold(RegionSide?, RegionSide?)
    case overlayCannotSeparate(Axis)
    case panelWider(Double, window: Double)
    case panelTaller(Double, window: Double)
    case panelSnapped(side: Bool, RegionSide)
    case popoverAsSheet(folded: Bool)
    case popoverAsCover(folded: Bool)
    case popoverAsCoverVerticallyCompact(folded: Bool)
    case presenterNotOnScreen(String, id: String)
    case presenterBusy(String)
    /// A modal presented from a non-modal panel whose context (a modal's id, or nil for the root) is busy.
    case panelContextBusy(String, context: String?)
    case chainedModal(String)
    case placementIgnored(SheetPlacement, Presentation.Kind)
    case detentClamped(Detent, Double)
    case toolbarItemMissingIcon(title: String?, index: Int)
    case fittedAccessibilityRisk(DynamicTypeSize)
    case placementMovedByFold(SheetPlacement, RegionSide)
    case placementNoEffectCompactHeight(SheetPlacement)
    case placementNoEffectCompactWidth(SheetPlacement, region: Bool)
    case detentsIgnoredByCard(region: Bool)

    init(stringLiteral s: StaticString) { self = .fixed(s) }

    func render<S: DiagnosticTextSink & ~Copyable>(into out: inout S) {
        switch self {
        case .fixed(let s): out.put(s)
        case .text(let s): out.put(text: s)
        case .unknownField(let name):
            out.put("unknown field \"")
            out.put(text: name)
            out.put("\" is ignored: check its spelling and where it is nested")
        case .postureIgnored(let posture, let device):
            out.put("posture \"")
            out.put(text: posture.rawValue)
            if let device {
                out.put("\" is ignored: device \"")
                out.put(text: device)
                out.put("\" does not fold; the scene is resolved flat")
            } else {
                out.put(
                    "\" is ignored: the scene has no device and no fold; give a foldable device or a \"fold\" to model a posture"
                )
            }
        case .arrangementInScrollContainer(let container):
            out.put("the arrangement sits in a ")
            out.put(text: container.rawValue)
            out.put(
                ": Apple advises against putting ArrangementView inside a List or ScrollView; let each view scroll on its own"
            )
        case .secondaryHidden(let axis, let allowed):
            out.put("the split needs the ")
            out.put(text: axis.rawValue)
            out.put(" axis here but axes allow only ")
            out.put(text: allowed.map(\.rawValue).joined(separator: ", "))
            out.put(": only the primary view is shown; allow both axes or give the secondary content another way in")
        case .splitFollowsFold(let first, let second):
            out.put("the split follows the fold: the primary view takes the ")
            out.put(text: first?.rawValue ?? "")
            out.put(" region and the secondary the ")
            out.put(text: second?.rawValue ?? "")
            out.put(" region; size preferences do not apply while the device is folded")
        case .overlayCannotSeparate(let axis):
            out.put("the overlay cannot separate along the ")
            out.put(text: axis.rawValue)
            out.put(" axis, which axes exclude: both views stay overlaid across the fold; allow the ")
            out.put(text: axis.rawValue)
            out.put(" axis")
        case .panelWider(let pw, let w):
            out.put("the ")
            out.put(text: fmt(pw))
            out.put(" pt side panel is wider than the ")
            out.put(text: fmt(w))
            out.put(" pt window: clamped to the window width; lower panelWidth")
        case .panelTaller(let ph, let h):
            out.put("the ")
            out.put(text: fmt(ph))
            out.put(" pt bottom panel is taller than the ")
            out.put(text: fmt(h))
            out.put(" pt window: clamped to the window height; lower panelHeight")
        case .panelSnapped(let side, let region):
            out.put("the ")
            out.put(text: side ? "side" : "bottom")
            out.put(" panel would cross the fold: it snaps to the ")
            out.put(text: region.rawValue)
            out.put(" region; size it to fit that region to avoid the jump")
        case .popoverAsSheet(let folded):
            out.put("the popover is shown as a sheet (medium and large detents) because the ")
            out.put(text: folded ? "anchor's region" : "window")
            out.put(" is horizontally compact; set compactAdaptation to \"popover\" to keep a popover")
        case .popoverAsCover(let folded):
            out.put("the popover is shown as a full-screen cover: the ")
            out.put(text: folded ? "anchor's region" : "window")
            out.put(" is horizontally compact and compactAdaptation is \"fullScreenCover\"")
        case .popoverAsCoverVerticallyCompact(let folded):
            // With a separating fold the anchor's region decides, and the window may well be regular.
            out.put("the popover is shown as a full-screen cover: the ")
            out.put(text: folded ? "anchor's region" : "window")
            out.put(" is vertically compact; set compactAdaptation to \"popover\" to keep a popover")
        case .presenterNotOnScreen(let presenter, let id):
            out.put("\"")
            out.put(text: presenter)
            out.put("\" is not on screen (it was ignored), so nothing can be presented from it: present \"")
            out.put(text: id)
            out.put("\" after it is dismissed")
        case .presenterBusy(let presenter):
            out.put("\"")
            out.put(text: presenter)
            out.put(
                "\" already presents a modal: SwiftUI ignores a second presentation from the same context; present this one from the modal on top, or after dismissing it"
            )
        case .panelContextBusy(let panel, let context):
            out.put("\"")
            out.put(text: panel)
            if let context {
                out.put("\" is a non-modal panel in the view hierarchy of \"")
                out.put(text: context)
                out.put("\", so this is presented from \"")
                out.put(text: context)
                out.put("\", which")
            } else {
                out.put(
                    "\" is a non-modal panel in the root's view hierarchy, so this is presented from the root, which")
            }
            out.put(
                " already presents a modal: SwiftUI ignores a second presentation from the same context; present this one from the modal on top, or after dismissing it"
            )
        case .chainedModal(let presenter):
            out.put("a modal presented from the modal \"")
            out.put(text: presenter)
            out.put("\": chained modals stack interruptions; consider navigating inside \"")
            out.put(text: presenter)
            out.put("\" instead")
        case .placementIgnored(let placement, let kind):
            out.put("placement \"")
            out.put(text: placement.rawValue)
            out.put("\" is ignored: only sheets honour presentationPlacement; remove it from this ")
            out.put(text: kind.rawValue)
        case .detentClamped(let detent, let h):
            out.put("detent ")
            out.put(text: detent.text)
            out.put(" is taller than the large detent here: clamped to ")
            out.put(text: fmt(h))
            out.put(" pt (window or region height − top safe area − sheet.topGap)")
        case .toolbarItemMissingIcon(let title, let index):
            out.put("toolbar item ")
            if let title {
                out.put("\"")
                out.put(text: title)
                out.put("\"")
            } else {
                out.put(text: String(index))
            }
            out.put(
                " has no systemImage: the sheet sits at the trailing edge with a vertical toolbar, which shows icons; give it a systemImage"
            )
        case .fittedAccessibilityRisk(let size):
            out.put("at ")
            out.put(text: size.rawValue)
            out.put(
                " text the content may outgrow a sheet whose detents are all fitted or fixed heights: make the content scrollable or add the \"large\" detent"
            )
        case .placementMovedByFold(let placement, let side):
            out.put("placement \"")
            out.put(text: placement.rawValue)
            out.put("\" would cross the fold: the sheet moves to the ")
            out.put(text: side.rawValue)
            out.put(" region (only trailing takes the trailing half)")
        case .placementNoEffectCompactHeight(let placement):
            out.put(text: placement.rawValue)
            out.put(" placement has no visible effect in a compact-height window: the sheet spans the window's width")
        case .placementNoEffectCompactWidth(let placement, let region):
            out.put(text: placement.rawValue)
            out.put(" placement has no visible effect on a compact-width ")
            out.put(text: region ? "region" : "window")
            out.put(": the sheet spans the full width")
        case .detentsIgnoredByCard(let region):
            out.put("detents are ignored by a card in a regular-width ")
            out.put(text: region ? "region" : "window")
            out.put(": its size comes from sizing (form, page or fitted)")
        }
    }

    var rendered: String {
        if case .text(let s) = self { return s }
        var sink = StringSink()
        render(into: &sink)
        return sink.text
    }
}

/// Adds the diagnostics of one presentation, filling in its id and path prefix (to `items`, which the engine
/// swaps with the scene's list while the presentation is resolved).
struct PresentationDiagnostics {
    let id: String
    let index: Int
    var items: [Diagnostic] = []

    init(id: String, index: Int) {
        self.id = id
        self.index = index
    }

    /// `/presentations/<index>[/member[/item]]`, rendered only when the diagnostic is read or encoded.
    mutating func add(
        _ code: DiagnosticCode, _ severity: Severity, _ member: StaticString = "", item: Int = -1,
        _ message: DiagnosticMessage
    ) {
        items.append(
            Diagnostic(
                code: code, severity: severity, presentation: id,
                path: .presentation(index: index, member: member, item: item),
                message: message))
    }
}
