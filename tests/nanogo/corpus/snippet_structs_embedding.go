type Engine struct {
	HP int
}

func (e Engine) Start() string { return fmt.Sprintf("engine with %d hp started", e.HP) }

type Car struct {
	Engine
	Brand string
}

c := Car{Engine{300}, "Volvo"}
fmt.Println(c.Start())
fmt.Println(c.HP, c.Brand)
fmt.Printf("%+v\n", c)
