package main

import (
	"fmt"
	"strings"
)

func sum(nums ...int) int {
	total := 0
	for _, n := range nums {
		total += n
	}
	return total
}

func join(sep string, parts ...string) string {
	return strings.Join(parts, sep)
}

func count(label string, xs ...interface{}) string {
	return fmt.Sprintf("%s: %d %v", label, len(xs), xs)
}

func main() {
	fmt.Println(sum(), sum(1), sum(1, 2, 3))
	nums := []int{10, 20, 30}
	fmt.Println(sum(nums...))
	fmt.Println(join("-", "a", "b", "c"), join(","))
	fmt.Println(count("none"), count("mixed", 1, "x", nil))
	args := []interface{}{"a", 2}
	fmt.Println(count("spread", args...))
	fmt.Println(args...)
}
