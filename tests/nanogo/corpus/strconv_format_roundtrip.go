package main

import (
	"fmt"
	"strconv"
)

func main() {
	for _, f := range []float64{0.1, 1.0 / 3, 2.5, 1e21, 123456789, -0.000001} {
		s := strconv.FormatFloat(f, 'g', -1, 64)
		back, _ := strconv.ParseFloat(s, 64)
		fmt.Println(s, back == f)
	}
	fmt.Println(strconv.FormatFloat(3.0, 'f', -1, 64), strconv.FormatFloat(3.14159, 'f', 3, 64))
	fmt.Println(strconv.FormatInt(-8, 2), strconv.FormatUint(255, 8))
	v, err := strconv.ParseInt("0x1f", 0, 64)
	fmt.Println(v, err)
	v, err = strconv.ParseInt("0b101", 0, 64)
	fmt.Println(v, err)
	v, err = strconv.ParseInt("-128", 10, 8)
	fmt.Println(v, err)
	v, err = strconv.ParseInt("-129", 10, 8)
	fmt.Println(v, err)
	u, err := strconv.ParseUint("-1", 10, 64)
	fmt.Println(u, err)
	fmt.Println(strconv.AppendInt([]byte("n="), 42, 10), string(strconv.AppendInt(nil, 7, 10)))
}
