package main

import (
	"fmt"
	"sort"
	"strings"
)

func main() {
	prices := map[string]float64{"apple": 1.2, "pear": 0.8, "kiwi": 2.5}
	for k := range prices {
		prices[k] *= 1.1
	}
	keys := make([]string, 0)
	for k := range prices {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%s=%.2f\n", k, prices[k])
	}
	fmt.Println(prices)
	index := map[string][]int{}
	for i, w := range strings.Fields("a b a c b a") {
		index[w] = append(index[w], i)
	}
	fmt.Println(index)
	set := map[int]struct{}{}
	for _, n := range []int{3, 1, 3, 2, 1} {
		set[n] = struct{}{}
	}
	fmt.Println(len(set), set)
	counts := map[string]int{}
	counts["x"] += 2
	counts["y"]--
	fmt.Println(counts)
	v := counts["nope"]
	fmt.Println(v, len(counts))
}
