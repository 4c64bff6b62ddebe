// Excluded by the root configuration: never linted.
// kblint:disable:next all
let generated = 1
