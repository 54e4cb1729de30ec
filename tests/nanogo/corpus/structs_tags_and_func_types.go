package main

import (
	"fmt"
	"strings"
)

type User struct {
	ID    int    `json:"id"`
	Name  string `json:"name,omitempty"`
	Email string `json:"email" db:"email_address"`
}

type HandlerFunc func(string) string

func (f HandlerFunc) Handle(s string) string { return "[" + f(s) + "]" }

type Handler interface{ Handle(string) string }

type Middleware func(Handler) Handler

func chain(h Handler, ms ...Middleware) Handler {
	for i := len(ms) - 1; i >= 0; i-- {
		h = ms[i](h)
	}
	return h
}

func main() {
	u := User{1, "Ann", "ann@example.com"}
	fmt.Printf("%+v\n", u)
	fmt.Printf("%#v\n", u)
	var h Handler = HandlerFunc(strings.ToUpper)
	fmt.Println(h.Handle("hi"))
	logMw := func(next Handler) Handler {
		return HandlerFunc(func(s string) string { return "log(" + next.Handle(s) + ")" })
	}
	trimMw := func(next Handler) Handler {
		return HandlerFunc(func(s string) string { return next.Handle(strings.TrimSpace(s)) })
	}
	fmt.Println(chain(h, logMw, trimMw).Handle("  go  "))
}
