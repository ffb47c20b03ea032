import SwiftUI

// A split allowed only to stack vertically: on the iPhone Duo half-opened the fold forces a side-by-side split, so
// the notes are hidden (docs/rules.md#split).
@available(iOS 27.1, *)
struct ReaderView: View {
    var body: some View {
        ArrangementView {
            ChapterText()
        } secondary: {
            NotesList()
                .splitArrangementLayoutRatio(0.3)
        }
        .arrangementViewStyle(.split.axes(.vertical))
    }
}
