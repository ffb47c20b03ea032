import SwiftUI

// Content that fits: its height is measured into a @State property and given to `.presentationDetents` as
// `.height(…)`, behind a custom modifier. This file presents nothing: it is read because presented content uses it.
private struct FittingSheetModifier: ViewModifier {
    let extraDetents: Set<PresentationDetent>
    @State private var measuredHeight: CGFloat = 1

    func body(content: Content) -> some View {
        content
            .onGeometryChange(for: CGFloat.self) { proxy in
                proxy.size.height
            } action: { newHeight in
                measuredHeight = max(1, newHeight)
            }
            .presentationDetents(
                Set([.height(measuredHeight)]).union(extraDetents)
            )
    }
}

extension View {
    func fittingSheetDetents(
        extraDetents: Set<PresentationDetent> = []
    ) -> some View {
        modifier(FittingSheetModifier(extraDetents: extraDetents))
    }
}
