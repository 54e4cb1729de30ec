package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

type Crawler struct {
	mu      sync.Mutex
	wg      sync.WaitGroup
	visited map[string]bool
	links   map[string][]string
}

func (c *Crawler) Visit(url string, depth int) {
	defer c.wg.Done()
	if depth == 0 {
		return
	}
	c.mu.Lock()
	if c.visited[url] {
		c.mu.Unlock()
		return
	}
	c.visited[url] = true
	c.mu.Unlock()
	for _, next := range c.links[url] {
		c.wg.Add(1)
		go c.Visit(next, depth-1)
	}
}

func main() {
	c := &Crawler{
		visited: map[string]bool{},
		links: map[string][]string{
			"/":      {"/a", "/b"},
			"/a":     {"/a/1", "/b"},
			"/b":     {"/", "/b/1"},
			"/b/1":   {"/b/1/x"},
			"/a/1":   {},
			"/b/1/x": {"/"},
		},
	}
	c.wg.Add(1)
	go c.Visit("/", 10)
	c.wg.Wait()
	var seen []string
	for u := range c.visited {
		seen = append(seen, u)
	}
	sort.Strings(seen)
	fmt.Println(len(seen), strings.Join(seen, " "))
}
