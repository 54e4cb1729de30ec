type Counter struct {
	count int
}

func (c *Counter) Increment() { c.count++ }
func (c Counter) Get() int    { return c.count }

c := Counter{}
for i := 0; i < 5; i++ {
	c.Increment()
}
fmt.Println(c.Get())
p := &c
p.Increment()
fmt.Println(c.count, p.Get())
