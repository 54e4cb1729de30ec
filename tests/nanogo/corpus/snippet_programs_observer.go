type Event struct {
	Name string
	Data int
}

type Listener interface {
	Notify(e Event) string
}

type Logger struct{ prefix string }

func (l Logger) Notify(e Event) string { return l.prefix + e.Name }

type Counter struct{ total int }

func (c *Counter) Notify(e Event) string {
	c.total += e.Data
	return fmt.Sprintf("total=%d", c.total)
}

counter := &Counter{}
listeners := []Listener{Logger{"log: "}, counter}
for _, e := range []Event{{"start", 1}, {"tick", 5}, {"stop", 10}} {
	for _, l := range listeners {
		fmt.Println(l.Notify(e))
	}
}
fmt.Println("final", counter.total)
