public struct Clean {}
