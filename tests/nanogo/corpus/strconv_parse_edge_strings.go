package main

import (
	"fmt"
	"math"
	"strconv"
)

// strconv's parsers on strings at their edges: underscores, NaN and Inf spellings, float32 rounding and
// range, hex floats, and integers whose overflow comes before a bad character.
func main() {
	for _, s := range []string{
		"_1",
		"1__0",
		"1_",
		"NaN",
		"nan",
		"-nan",
		"+nan",
		"1.7976931348623158e308",
		"1.797693134862315807e308",
		"0x1.fffffffffffffp1023",
		"0x1.fffffffffffff8p1023",
		"1.00000005960464477550",
		"3.4028235677973366e38",
		"3.4028236e38",
		"123456789012345678901234567890e-20",
		"NAN",
		"nAn",
		"1e308",
		"179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999999999999999999999999999999999999999999999999999999999999999999",
		"1e400",
		"-1e-400",
		"0x1p-2",
		"0x1p",
		"infx",
		"Infinity",
		"+.5",
		"1e",
		"2.2250738585072011e-308",
		"2.4703282292062328e-324",
	} {
		v, err := strconv.ParseFloat(s, 64)
		fmt.Println(math.Float64bits(v), v, err)
		w, err := strconv.ParseFloat(s, 32)
		fmt.Println(math.Float32bits(float32(w)), w, err)
		n, err := strconv.Atoi(s)
		fmt.Println(n, err)
	}
	for _, s := range []string{
		"0x_1f",
		"0b_101",
		"0_7",
		"1_000",
		"300x",
		"-1",
		"-9223372036854775809",
		"9223372036854775808",
		"0x",
		"-",
		"+",
		"",
		"0o17",
		"017",
		"0b2",
		"1__0",
		"_1",
		"99999999999999999999x",
		" 1",
		"\uff11",
	} {
		i, err := strconv.ParseInt(s, 0, 64)
		fmt.Println(i, err)
		j, err := strconv.ParseInt(s, 10, 8)
		fmt.Println(j, err)
		u, err := strconv.ParseUint(s, 0, 8)
		fmt.Println(u, err)
		n, err := strconv.Atoi(s)
		fmt.Println(n, err)
	}
	_, err := strconv.ParseInt("1", 1, 64)
	fmt.Println(err)
	_, err = strconv.ParseUint("1", 10, 65)
	fmt.Println(err)
}
