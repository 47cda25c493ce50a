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

}  // namespace ct::fixtures
