package main

import "fmt"

type Logger struct {
	prefix string
	lines  []string
}

func (l *Logger) Log(msg string) {
	l.lines = append(l.lines, l.prefix+msg)
}

type Service struct {
	*Logger
	Name string
}

type Counter interface{ Inc() int }

type Hits struct{ n int }

func (h *Hits) Inc() int { h.n++; return h.n }

func main() {
	s := Service{&Logger{prefix: "[svc] "}, "api"}
	s.Log("start")
	s.Log("stop")
	fmt.Println(s.lines, len(s.Logger.lines))
	var c Counter = &Hits{}
	c.Inc()
	fmt.Println(c.Inc())
	hits := []Hits{{}, {}}
	for i := range hits {
		hits[i].Inc()
	}
	fmt.Println(hits)
}
