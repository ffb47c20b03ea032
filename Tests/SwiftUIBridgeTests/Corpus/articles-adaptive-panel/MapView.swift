import SwiftUI

// Background interaction up through a detent: the map stays usable while the sheet is at 220 points.
struct MapView: View {
    @State private var showsDetail = false

    var body: some View {
        MapCanvas()
            .sheet(isPresented: $showsDetail) {
                DetailView()
                    .presentationDetents([.height(220), .medium, .large])
                    .presentationBackgroundInteraction(
                        .enabled(upThrough: .height(220))
                    )
            }
    }
}
