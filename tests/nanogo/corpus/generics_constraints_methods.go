package main

import (
	"fmt"
	"strings"
)

type Stringer interface{ String() string }

type Celsius float64

func (c Celsius) String() string { return fmt.Sprintf("%.1fC", float64(c)) }

func JoinAll[T Stringer](xs []T, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = x.String()
	}
	return strings.Join(parts, sep)
}

type Number interface{ ~int | ~float64 }

func Average[T Number](xs ...T) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum T
	for _, x := range xs {
		sum += x
	}
	return float64(sum) / float64(len(xs))
}

func Zero[T any]() T {
	var z T
	return z
}

func main() {
	fmt.Println(JoinAll([]Celsius{20, 22.5}, ", "))
	fmt.Println(Average(1, 2, 4), Average(1.5, 2.5), Average[int]())
	fmt.Printf("%q %v %v\n", Zero[string](), Zero[int](), Zero[*int]())
}
