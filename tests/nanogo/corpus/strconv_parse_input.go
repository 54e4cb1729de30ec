package main

import (
	"fmt"
	"strconv"
	"strings"
)

func main() {
	input := "10 20 x 30 -5 4.5"
	sum := 0
	var bad []string
	for _, tok := range strings.Fields(input) {
		n, err := strconv.Atoi(tok)
		if err != nil {
			bad = append(bad, tok)
			continue
		}
		sum += n
	}
	fmt.Println("sum:", sum, "bad:", bad)
	nums := []string{}
	for i := 1; i <= 5; i++ {
		nums = append(nums, strconv.Itoa(i*i))
	}
	fmt.Println(strings.Join(nums, "+"))
	fmt.Println("42" + strconv.Itoa(42), string(rune(42)))
	v, err := strconv.ParseInt("  7", 10, 64)
	fmt.Println(v, err)
	x, err := strconv.Atoi("+15")
	fmt.Println(x, err)
	y, err := strconv.Atoi("-0")
	fmt.Println(y, err)
}
