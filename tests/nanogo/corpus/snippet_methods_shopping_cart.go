type LineItem struct {
	Name  string
	Price float64
	Qty   int
}

type Cart struct {
	Items    []LineItem
	Discount float64
}

func (c *Cart) Add(name string, price float64, qty int) {
	for i := range c.Items {
		if c.Items[i].Name == name {
			c.Items[i].Qty += qty
			return
		}
	}
	c.Items = append(c.Items, LineItem{name, price, qty})
}

func (c Cart) Subtotal() float64 {
	s := 0.0
	for _, it := range c.Items {
		s += it.Price * float64(it.Qty)
	}
	return s
}

func (c Cart) Total() float64 { return c.Subtotal() * (1 - c.Discount) }

cart := &Cart{Discount: 0.1}
cart.Add("pen", 1.25, 4)
cart.Add("notebook", 3.5, 2)
cart.Add("pen", 1.25, 2)
for _, it := range cart.Items {
	fmt.Printf("%-9s %2d x %5.2f\n", it.Name, it.Qty, it.Price)
}
fmt.Printf("subtotal %.2f, total %.2f\n", cart.Subtotal(), cart.Total())
