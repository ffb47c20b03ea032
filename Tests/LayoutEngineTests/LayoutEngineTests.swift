import Testing
@testable import LayoutEngine
