package main

import "fmt"

func main() {
	graph := map[string][]string{
		"a": {"b", "c"},
		"b": {"d"},
		"c": {"d", "e"},
		"d": {},
		"e": {"a"},
	}
	fmt.Println(graph)
	visited := map[string]bool{}
	var order []string
	var dfs func(string)
	dfs = func(n string) {
		if visited[n] {
			return
		}
		visited[n] = true
		order = append(order, n)
		for _, next := range graph[n] {
			dfs(next)
		}
	}
	dfs("a")
	fmt.Println(order)
	nested := map[string]map[string]int{}
	add := func(a, b string, n int) {
		if nested[a] == nil {
			nested[a] = map[string]int{}
		}
		nested[a][b] += n
	}
	add("x", "y", 1)
	add("x", "z", 2)
	add("w", "y", 3)
	add("x", "y", 4)
	fmt.Println(nested)
}
