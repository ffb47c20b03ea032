import Testing
@testable import Service
