// TOML through a depth pre-scan: a lexer that knows just enough of TOML (strings of the four kinds,
// comments, brackets, headers at the start of a line) to count how deep each key sits.
#include "core/util/toml_parse.h"

#include "core/util/error.h"
#include "core/util/read_file.h"

#include <fmt/format.h>

#include <vector>

namespace rlda::core {

namespace {

class DepthScan {
public:
    DepthScan(std::string_view text, const std::string& source) : t_(text), source_(source) {}

    void run()
    {
        while (i_ < t_.size()) {
            const char c = t_[i_];
            if (c == '#') {
                skip_comment();
            } else if (c == '"' || c == '\'') {
                skip_string(c); // part of a key (a quoted key) or a value: the dot run goes on
            } else if (c == '\n') {
                newline();
            } else if (c == '[' && open_.empty() && at_line_start()) {
                header();
            } else if (c == '{' || c == '[') {
                // Whatever is inside sits below the key just assigned (an array inside an array one
                // level below it).
                open_.push_back(level() + key_parts_);
                check(open_.back());
                key_parts_ = 1;
                reset_run();
                advance();
            } else if (c == '}' || c == ']') {
                if (!open_.empty())
                    open_.pop_back();
                reset_run();
                advance();
            } else if (c == '.') {
                ++dots_;
                check(level() + dots_ + 1);
                advance();
            } else if (c == '=') {
                key_parts_ = dots_ + 1;
                reset_run();
                advance();
            } else if (key_char(c) || c == ' ' || c == '\t' || c == '\r') {
                advance();
            } else {
                reset_run();
                advance();
            }
        }
    }

private:
    static bool key_char(char c)
    {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
               c == '+' || c == ':';
    }

    int level() const { return open_.empty() ? header_ : open_.back(); }

    void check(int depth) const
    {
        if (depth > kMaxTomlDepth)
            throw ConfigError(fmt::format("{}:{}:{}: a key nested deeper than {} levels (dotted key, table header "
                                          "or inline tables)",
                                          source_, line_, column_, kMaxTomlDepth));
    }

    void advance()
    {
        ++i_;
        ++column_;
    }

    void newline()
    {
        ++i_;
        ++line_;
        column_ = 1;
        line_start_ = i_;
        if (open_.empty()) {
            reset_run();
            key_parts_ = 1;
        }
    }

    void reset_run() { dots_ = 0; }

    bool at_line_start() const
    {
        for (std::size_t j = line_start_; j < i_; ++j)
            if (t_[j] != ' ' && t_[j] != '\t')
                return false;
        return true;
    }

    void skip_comment()
    {
        while (i_ < t_.size() && t_[i_] != '\n')
            advance();
    }

    // A string of any of TOML's four kinds; newlines inside multi-line ones are counted.
    void skip_string(char quote)
    {
        const bool multi = t_.substr(i_, 3) == std::string(3, quote);
        const std::size_t open = multi ? 3 : 1;
        for (std::size_t k = 0; k < open; ++k)
            advance();
        while (i_ < t_.size()) {
            const char c = t_[i_];
            if (c == '\\' && quote == '"') {
                advance();
                if (i_ < t_.size() && t_[i_] != '\n')
                    advance();
                continue;
            }
            if (c == '\n') {
                if (!multi)
                    return; // toml++ reports the unterminated string
                ++i_;
                ++line_;
                column_ = 1;
                line_start_ = i_;
                continue;
            }
            if (c == quote && (!multi || t_.substr(i_, 3) == std::string(3, quote))) {
                for (std::size_t k = 0; k < open; ++k)
                    advance();
                return;
            }
            advance();
        }
    }

    // [a.b.c] or [[a.b.c]]: its parts are the level of every key below it.
    void header()
    {
        advance();
        if (i_ < t_.size() && t_[i_] == '[')
            advance();
        header_ = 0;
        reset_run();
        while (i_ < t_.size() && t_[i_] != ']' && t_[i_] != '\n') {
            if (t_[i_] == '"' || t_[i_] == '\'') {
                skip_string(t_[i_]);
                continue;
            }
            if (t_[i_] == '.') {
                ++dots_;
                check(dots_ + 1);
            }
            advance();
        }
        header_ = dots_ + 1;
        reset_run();
    }

    std::string_view t_;
    const std::string& source_;
    std::size_t i_ = 0;
    std::size_t line_start_ = 0;
    int line_ = 1;
    int column_ = 1;
    int header_ = 0;    // parts of the last table header
    int dots_ = 0;      // dots in the current run of key parts
    int key_parts_ = 1; // parts of the key last assigned
    std::vector<int> open_; // the level inside each open inline table or array
};

} // namespace

void check_toml_depth(std::string_view text, const std::string& source)
{
    DepthScan(text, source).run();
}

std::string read_toml_file(const std::string& path)
{
    try {
        return read_text_file(path, kMaxTomlFileBytes);
    } catch (const ConfigError&) {
        throw;
    } catch (const Error& e) {
        throw ConfigError(e.what());
    }
}

toml::table parse_toml(std::string_view text, const std::string& source)
{
    check_toml_depth(text, source);
    try {
        return toml::parse(text, source);
    } catch (const toml::parse_error& e) {
        const auto& b = e.source().begin;
        throw ConfigError(fmt::format("{}:{}:{}: {}", source, b.line, b.column, e.description()));
    }
}

} // namespace rlda::core
