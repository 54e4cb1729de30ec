package main

import (
	"fmt"
	"sort"
)

type Edge struct {
	To     string
	Weight int
}

func dijkstra(g map[string][]Edge, src string) map[string]int {
	dist := map[string]int{src: 0}
	done := map[string]bool{}
	for {
		best, bestD := "", -1
		for n, d := range dist {
			if done[n] {
				continue
			}
			if bestD == -1 || d < bestD || (d == bestD && n < best) {
				best, bestD = n, d
			}
		}
		if bestD == -1 {
			return dist
		}
		done[best] = true
		for _, e := range g[best] {
			nd := bestD + e.Weight
			if old, ok := dist[e.To]; !ok || nd < old {
				dist[e.To] = nd
			}
		}
	}
}

func topoSort(deps map[string][]string) ([]string, bool) {
	indeg := map[string]int{}
	for n, ds := range deps {
		if _, ok := indeg[n]; !ok {
			indeg[n] = 0
		}
		for _, d := range ds {
			indeg[d] += 0
			indeg[n]++
		}
	}
	var ready []string
	for n, d := range indeg {
		if d == 0 {
			ready = append(ready, n)
		}
	}
	sort.Strings(ready)
	var order []string
	for len(ready) > 0 {
		n := ready[0]
		ready = ready[1:]
		order = append(order, n)
		var next []string
		for m, ds := range deps {
			for _, d := range ds {
				if d == n {
					indeg[m]--
					if indeg[m] == 0 {
						next = append(next, m)
					}
				}
			}
		}
		ready = append(ready, next...)
		sort.Strings(ready)
	}
	return order, len(order) == len(indeg)
}

func main() {
	g := map[string][]Edge{
		"A": {{"B", 4}, {"C", 2}},
		"B": {{"C", 5}, {"D", 10}},
		"C": {{"E", 3}},
		"E": {{"D", 4}},
		"D": {{"F", 11}},
	}
	dist := dijkstra(g, "A")
	fmt.Println(dist)
	order, ok := topoSort(map[string][]string{
		"app":    {"lib", "log"},
		"lib":    {"core"},
		"log":    {"core", "fmt"},
		"core":   {},
		"fmt":    {},
		"test":   {"app"},
		"docs":   {},
	})
	fmt.Println(order, ok)
	_, ok = topoSort(map[string][]string{"a": {"b"}, "b": {"a"}})
	fmt.Println("cyclic ok:", ok)
}
