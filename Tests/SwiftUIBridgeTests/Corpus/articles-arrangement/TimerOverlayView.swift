import SwiftUI

// A timer over a photo of the dish; across a fold the timer takes the bottom region.
@available(iOS 27.1, *)
struct TimerOverlayView: View {
    var body: some View {
        ArrangementView {
            Text("Tiempo restante: 12:30")
                .padding()
                .background(.regularMaterial, in: .capsule)
                .frame(
                    maxWidth: .infinity,
                    maxHeight: .infinity,
                    alignment: .bottom
                )
                .padding()
                .overlayArrangementEdge(.bottom)
        } secondary: {
            Image("vegetable-soup")
                .resizable()
                .scaledToFit()
        }
        .arrangementViewStyle(.overlay)
    }
}

// The default style, said explicitly: the system resolves it as a split.
@available(iOS 27.1, *)
struct AutomaticRecipeView: View {
    var body: some View {
        ArrangementView {
            StepsList()
        } secondary: {
            IngredientsList()
                .splitArrangementLayoutSize(280)
        }
        .arrangementViewStyle(.automatic)
    }
}
