package main

import (
	"fmt"
	"strconv"
)

// strconv.FormatFloat in every format ('b', 'x', 'X', 'e', 'g', 'f', 'G', 'E' and an unknown one) and
// precisions from -1 (shortest) up, for float64 and float32.
func main() {
	vals := []float64{0, -0.1, 1, 9.5, -10, 100, 1.0 / 3, 0.045, 1e21, 5e-324, 1.7976931348623157e308,
		-6.091333036958065e-309, 16777217, 3.4028234663852886e38, 1.401298464324817e-45}
	for _, v := range vals {
		for _, c := range []byte("bxXegfGEz") {
			line := string(c) + ":"
			for _, p := range []int{-1, 0, 1, 2, 3, 5, 17} {
				line += " " + strconv.FormatFloat(v, c, p, 64) + "/" + strconv.FormatFloat(v, c, p, 32)
			}
			fmt.Println(line)
		}
	}
}
