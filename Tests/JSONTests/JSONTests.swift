import Testing
@testable import JSON
