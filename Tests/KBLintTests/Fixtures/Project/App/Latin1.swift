import UIKit

// Saved as Latin-1 by an old editor: café.
let greeting = "café"
