package main

import "fmt"

type entry struct {
	key, val   int
	prev, next *entry
}

type LRU struct {
	cap        int
	items      map[int]*entry
	head, tail *entry
}

func NewLRU(capacity int) *LRU {
	h, t := &entry{}, &entry{}
	h.next, t.prev = t, h
	return &LRU{cap: capacity, items: map[int]*entry{}, head: h, tail: t}
}

func (c *LRU) unlink(e *entry) { e.prev.next, e.next.prev = e.next, e.prev }

func (c *LRU) pushFront(e *entry) {
	e.next, e.prev = c.head.next, c.head
	c.head.next.prev = e
	c.head.next = e
}

func (c *LRU) Get(k int) int {
	if e, ok := c.items[k]; ok {
		c.unlink(e)
		c.pushFront(e)
		return e.val
	}
	return -1
}

func (c *LRU) Put(k, v int) {
	if e, ok := c.items[k]; ok {
		e.val = v
		c.unlink(e)
		c.pushFront(e)
		return
	}
	if len(c.items) == c.cap {
		last := c.tail.prev
		c.unlink(last)
		delete(c.items, last.key)
		fmt.Println("evict", last.key)
	}
	e := &entry{key: k, val: v}
	c.items[k] = e
	c.pushFront(e)
}

func (c *LRU) Keys() []int {
	var ks []int
	for e := c.head.next; e != c.tail; e = e.next {
		ks = append(ks, e.key)
	}
	return ks
}

func main() {
	c := NewLRU(2)
	c.Put(1, 1)
	c.Put(2, 2)
	fmt.Println(c.Get(1))
	c.Put(3, 3)
	fmt.Println(c.Get(2))
	c.Put(4, 4)
	fmt.Println(c.Get(1), c.Get(3), c.Get(4))
	fmt.Println(c.Keys())
}
