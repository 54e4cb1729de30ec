func describe(i interface{}) {
	fmt.Printf("(%v, %T)\n", i, i)
}

describe(42)
describe("hi")
describe(nil)
describe(struct{ A int }{1})
describe([]interface{}{1, "a"})
var a any = 2.5
describe(a)
