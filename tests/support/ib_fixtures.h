// The InfiniBand test fabric the IB tests share, in ibnetdiscover format.
#pragma once

namespace ct::fixtures {

// 2 leaves x 2 spines, two hosts per leaf: L1 ports 1,2 -> H1,H2, port 3 -> S1, port 4 -> S2; L2
// ports 1,2 -> H3,H4, 3 -> S1, 4 -> S2; S1 and S2 port 1 -> L1, port 2 -> L2. No GUID lines, so
// GUIDs are as ibsim gives them: switches 0x200000.., CAs 0x100000.. (port GUID +1).
// Lines of the text: L1 1, L2 7, S1 13, S2 17, H1 21, H2 24, H3 27, H4 30.
inline constexpr const char* kIbTwoByTwo = R"(Switch 4 "L1" # "leaf1"
[1] "H1"[1]
[2] "H2"[1]
[3] "S1"[1]
[4] "S2"[1]

Switch 4 "L2" # "leaf2"
[1] "H3"[1]
[2] "H4"[1]
[3] "S1"[2]
[4] "S2"[2]

Switch 4 "S1" # "spine1"
[1] "L1"[3]
[2] "L2"[3]

Switch 4 "S2" # "spine2"
[1] "L1"[4]
[2] "L2"[4]

Ca 1 "H1" # "host1"
[1] "L1"[1]

Ca 1 "H2" # "host2"
[1] "L1"[2]

Ca 1 "H3" # "host3"
[1] "L2"[1]

Ca 1 "H4" # "host4"
[1] "L2"[2]
)";

// Ring A-B-C-D-A, one host each: port 1 host, port 2 clockwise neighbour, port 3 counter-clockwise.
inline constexpr const char* kIbRing = R"(Switch 3 "A"
[1] "HA"[1]
[2] "B"[3]
[3] "D"[2]

Switch 3 "B"
[1] "HB"[1]
[2] "C"[3]
[3] "A"[2]

Switch 3 "C"
[1] "HC"[1]
[2] "D"[3]
[3] "B"[2]

Switch 3 "D"
[1] "HD"[1]
[2] "A"[3]
[3] "C"[2]

Ca 1 "HA"
[1] "A"[1]

Ca 1 "HB"
[1] "B"[1]

Ca 1 "HC"
[1] "C"[1]

Ca 1 "HD"
[1] "D"[1]
)";

}  // namespace ct::fixtures
