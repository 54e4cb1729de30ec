type Rectangle struct {
	Width, Height float64
}

func (r Rectangle) Area() float64 {
	return r.Width * r.Height
}

func (r *Rectangle) Scale(f float64) {
	r.Width *= f
	r.Height *= f
}

rect := Rectangle{Width: 3, Height: 4}
fmt.Println("Area:", rect.Area())
rect.Scale(2)
fmt.Printf("%+v area=%.1f\n", rect, rect.Area())
