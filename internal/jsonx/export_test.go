package jsonx

// Decode is the v2 decoder alone, without the encoding/json pass that
// reports a failure, for the differential tests.
var Decode = decode

// DecoderName names the decoder this build runs on.
const DecoderName = decoderName
