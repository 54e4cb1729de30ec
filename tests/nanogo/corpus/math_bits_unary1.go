package main

import (
	"fmt"
	"math"
	"strconv"
)

// Math functions on bit patterns: specials, subnormals, huge and tiny values, near multiples of Pi/4,
// random bits. Each line is one input's results as hex bits, so a difference in the last bit shows.

func h(x float64) string {
	if x != x {
		return "NaN"
	}
	return strconv.FormatUint(math.Float64bits(x), 16)
}

var unary = []uint64{
	0x953621ea2f04, 0xc277a08c9196d, 0xd7c6fec1e07d7, 0xd73532af088537, 0x13a43ea9f8dac455, 0x169cdd20c0de652a,
	0x293fa027d71c3522, 0x3a34e4ef0b0d5a0f, 0x3c31c76419eb7529, 0x3caabafbbf023caa, 0x3cbf1686bbb4ae8e, 0x3d1db5ce66e6db84,
	0x3d6d4c22aca9c3e1, 0x3dc7f880715bf8c7, 0x3dd551ba526a3f92, 0x3e7e20c99b86fc80, 0x3ea9cfd9decc0e66, 0x3f0c99171cddf42a,
	0x3f52c09faedd2e82, 0x3f7f2e5cd8859402, 0x3fb999999999999a, 0x3fbc29dc61632420, 0x3fc085b2832b92c0, 0x3fc3693cd1c55b1d,
	0x3fc8378f44cfa058, 0x3fd1ce7f0a4c88d4, 0x3fd3a508c2335d10, 0x3fd466367fe65d9c, 0x3fe02714b3e6eda0, 0x3fe1f77d01f53f4e,
	0x3fe394b3c6f186a4, 0x3fe6666666666666, 0x3fe6811d259cc762, 0x3feaa607cea3dd38, 0x3fed8852af0828f4, 0x3feffffffffffc6b,
	0x3feffffffffffcf7, 0x3feffffffffffef4, 0x3feffffffffffefe, 0x3ff0000000000030, 0x3ff0000000000128, 0x3ff0000000000351,
	0x3ff0c85fe09bc65e, 0x3ff25fd01bb19bb2, 0x3ff5be99559e59ba, 0x3ff88f9491443980, 0x3ff94fa60da20c21, 0x3ff9b2fab300108f,
	0x3ff9ca03234d6630, 0x3ffb518347db1cbf, 0x3fff8a9356671a6a, 0x4002d97c7f3321d1, 0x4002d97c7f3321d3, 0x4012d97c7f3321d4,
	0x40156cc4c72bac3c, 0x40278fdb9effea46, 0x4029000000000001, 0x40346b9c347764a5, 0x403686cb06eed362, 0x4039eb0b2ee64e80,
	0x403b6d1dfa786780, 0x403d0f4a996ed425, 0x403e04d2a1b58f94, 0x403ea16a4eb316f6, 0x40477ffffffffffd, 0x404921fb54442d18,
	0x404bdbedc0f7ed25, 0x404d0f4a996ed423, 0x40507e4cef4cbd99, 0x4052a00000000003, 0x4055600000000002, 0x4056600000000000,
	0x40573fffffffffff, 0x405ea16a4eb316f5, 0x40682824b00c5bcf, 0x4075ada1010f3d90, 0x40862e42fefa39ef, 0x41851817fa173152,
	0x41a24de2cce47c9f, 0x41a2b9b0a15be60f, 0x41a6c2ebc8dda427, 0x41b2059f34f1f2d2, 0x41b3239437e94ba0, 0x41b8c9c7c9dbe1da,
	0x41bcd9744a8f594f, 0x41c343863c2da050, 0x41c38eb455901dd2, 0x41c3fc42ca047728, 0x41c53ef4fd5fd3d0, 0x41c949a99d212b1e,
	0x41d16b4fd3a74488, 0x41d16b4fd3a7448a, 0x41d5d38fedf8950f, 0x41dd44154f859a57, 0x41e0e0d3c24ed20e, 0x41e15a5289849185,
	0x41e15a5289849186, 0x41e1ee1155157c8c, 0x420d4223fc1f977a, 0x424249567d93bead, 0x429f3e0313188da3, 0x438feb48b3d200df,
	0x47a5968c126ed9a6, 0x4c539942fe71123f, 0x4ed7049b82d5ed7b, 0x5015f9e2fd9ff9eb, 0x55adf0b3a5d04fab, 0x58f52eb33d7afa18,
	0x59f8f9fb278a6803, 0x601d5b2725991680, 0x6143117f833cd4a2, 0x62b71ace964549c6, 0x672a2dc9f0a9d837, 0x6f9ac07c5b6e138f,
	0x7413fc8542370021, 0x7b39485091f90e5c, 0x7d4c2fe899a7dcd1, 0x7f4bdabd39473991, 0x7fefffffffffffff, 0x8002e50bb52fa53c,
	0x87dc1f70cbe50995, 0x8ec94575057a5690, 0x950554f86ecd4c51, 0x9545e5d5b692e18d, 0x98a211a2875d73ba, 0x9bd2815ea557f95e,
	0xb3714b76018975dd, 0xb74f921f4017052b, 0xb9f6cf076e3ef1d8, 0xbc39113fb09d2887, 0xbc6dd65305c7a623, 0xbcb543c754ff46fe,
	0xbd219c926af4adc7, 0xbdaa043298057435, 0xbe3b5516e60bee49, 0xbe73507dbd7b9f9a, 0xbe9c123ee46a04d4, 0xbeb2673258f087e3,
	0xbf554b2c6b0e3771, 0xbf67133aaf9ae610, 0xbf674f6a9d4785f0, 0xbf8372ea8b40bdd0, 0xbf83bc17396f5909, 0xbfa3e5de03f2b36f,
	0xbfbc7bbbccd6ea64, 0xbfc27087f1ac493c, 0xbfc754557b2e2570, 0xbfcd661c66de6872, 0xbfd14a2f8e79a8bb, 0xbfd5628bfafcb3b0,
	0xbfd7053894926dc0, 0xbfd7cca0ff8c156c, 0xbfd7dbc2df883fc4, 0xbfd95c31b1227a9e, 0xbfe010ba82bce716, 0xbfea50ef50e66c2a,
	0xbfebcad929990044, 0xbfefbcf1b1a7eb50, 0xbfefcf6abccd3356, 0xbfeffffffffffffe, 0xbff0000000000000, 0xc003504f333f9de6,
	0xc00921fb54442d16, 0xc0097d92c6a8b2c4, 0xc012f8fe11b156d2, 0xc015a854863f238e, 0xc02f6a7a2955385c, 0xc0315d991ac45106,
	0xc032106ca4910069, 0xc0327ffffffffffe, 0xc035000000000001, 0xc039c3daced4ee24, 0xc03b7d2ae42a9154, 0xc03d60212b455a91,
	0xc03f6a7a2955385c, 0xc046c6cbc45dc8dc, 0xc04c463abeccb2bc, 0xc04e800000000000, 0xc053a28c59d5433b, 0xc054bfffffffffff,
	0xc05921fb54442d16, 0xc05b7d2ae42a9150, 0xc05d0f4a996ed423, 0xc067a92dfc215098, 0xc084fba828e40ec6, 0xc3bc8d21d89e0015,
	0xc6eea43a8682238e, 0xc774dff696865d90, 0xc818c05c9f196f4b, 0xc9dfd8b878a5dc9d, 0xd0702d23d64b50b2, 0xd22d368654ad91ec,
	0xd288a08e96855d7c, 0xd49c3356a12b7c40, 0xd9a71a6ede63de61, 0xdc8e42cb88f32f7c, 0xde80c1ccca42a799, 0xeb0bf26803074198,
	0xedd45b9eacbf5c91, 0xef89c9793e69257c, 0xf80c1285a5c70f1c, 0xfce50c83ae354440,
}

func main() {
	for _, b := range unary {
		x := math.Float64frombits(b)
		fr, e := math.Frexp(x)
		ip, fp := math.Modf(x)
		fmt.Println(h(x), h(math.Sqrt(x)), h(math.Abs(x)), h(math.Floor(x)), h(math.Ceil(x)), h(math.Trunc(x)), h(math.Round(x)), h(math.RoundToEven(x)), h(math.Log(x)), h(math.Log2(x)), h(math.Log10(x)), h(math.Exp(x)), h(math.Exp2(x)), h(fr), e, h(ip), h(fp))
	}
}
